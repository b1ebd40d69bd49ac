import AsyncHTTPClient
import EntitleCore
import EntitleServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SQLKit

/// A real Entitle service with the DemoMVPD on an ephemeral loopback port, on SQLite in a temporary directory or,
/// when `ENTITLE_TEST_DATABASE_URL` is set, on a fresh PostgreSQL database created for the run and dropped after it.
/// Tests, `entitle bench` and `entitle device --local` run the same service this way; everything stops when `body` returns.
public struct LocalService: Sendable {
    /// The running host.
    public let host: EntitleHost
    /// Its base URL.
    public let baseURL: String
    /// Its data directory.
    public let dataDirectory: String
    /// An HTTP client that does not follow redirects (the browser client follows them itself).
    public let httpClient: HTTPClient
    /// The service's clock.
    public let clock: ManualClock

    /// The service.
    public var service: EntitleService { host.service }
    /// The demo software statement.
    public var softwareStatement: String { host.demoInfo!.softwareStatement }

    /// Runs `body` with a started host; stops everything afterwards.
    /// The catalog is checked before every use unless `catalogRefresh` says otherwise (tests that change it from
    /// another process then see the change at once).
    public static func run(rateLimit: Double = 0, burst: Double = 10, clock: ManualClock = ManualClock(),
                    databaseURL: String? = nil, dataDirectory: String? = nil, catalogRefresh: Duration = .zero,
                    _ body: (LocalService) async throws -> Void) async throws {
        // The port is chosen before the service can bind it (its URLs are part of the seeded world), so another
        // process may take it meanwhile: then the whole start is retried on a new port with fresh storage.
        for attempt in 1...5 {
            let directory = dataDirectory ?? NSTemporaryDirectory() + "entitle-test-" + UUID().uuidString
            let database: TestDatabase? = databaseURL == nil ? try await TestDatabase.create() : nil
            defer { if dataDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }
            do {
                try await runOnce(rateLimit: rateLimit, burst: burst, clock: clock, databaseURL: databaseURL ?? database?.url,
                                  dataDirectory: directory, catalogRefresh: catalogRefresh, body)
                try? await database?.drop()
                return
            } catch is PortTaken where attempt < 5 && dataDirectory == nil {
                try? await database?.drop()
            } catch {
                try? await database?.drop()
                throw error
            }
        }
    }

    /// Two instances on one database (a throwaway PostgreSQL database when `ENTITLE_TEST_DATABASE_URL` is set, else
    /// one SQLite file in a shared data directory) and one clock; the database and the folder are removed whatever
    /// `body` does.
    public static func runTwoInstances(clock: ManualClock = ManualClock(), catalogRefresh: Duration = .zero,
                                       _ body: (_ first: LocalService, _ second: LocalService) async throws -> Void) async throws {
        let database = try await TestDatabase.create()
        let directory = NSTemporaryDirectory() + "entitle-instances-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try await run(clock: clock, databaseURL: database?.url, dataDirectory: directory, catalogRefresh: catalogRefresh) { first in
                try await run(clock: clock, databaseURL: database?.url, dataDirectory: directory, catalogRefresh: catalogRefresh) { second in
                    try await body(first, second)
                }
            }
        } catch {
            try? await database?.drop()
            throw error
        }
        try? await database?.drop()
    }

    /// The server could not bind its port (another process took it after ``freePort()``).
    struct PortTaken: Error {}

    static func runOnce(rateLimit: Double, burst: Double, clock: ManualClock, databaseURL: String?, dataDirectory: String,
                        catalogRefresh: Duration, _ body: (LocalService) async throws -> Void) async throws {
        var configuration = HostConfiguration()
        configuration.port = try freePort()
        configuration.dataDirectory = dataDirectory
        configuration.databaseURL = databaseURL
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = burst
        configuration.catalogRefresh = catalogRefresh
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        let host = try await EntitleHost.prepare(configuration: configuration, logger: logger, clock: clock)
        let (listening, listeningSignal) = AsyncStream<Void>.makeStream()
        let app = host.makeApplication { _ in
            listeningSignal.yield()
            listeningSignal.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let testHost = LocalService(host: host, baseURL: configuration.baseURL, dataDirectory: dataDirectory, httpClient: httpClient, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { listeningSignal.finish() }
                try await group.run()
            }
            do {
                // Only once this server listens is /healthz surely answered by it and not by whoever holds the port.
                var signals = listening.makeAsyncIterator()
                guard await signals.next() != nil else { throw PortTaken() }
                try await testHost.waitUntilHealthy()
                try await body(testHost)
            } catch {
                await group.triggerGracefulShutdown()
                try? await httpClient.shutdown()
                await host.shutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        try await httpClient.shutdown()
        await host.shutdown()
    }

    /// Waits until `/healthz` answers.
    public func waitUntilHealthy() async throws {
        for _ in 0..<100 {
            if let response = try? await httpClient.execute(HTTPClientRequest(url: baseURL + "/healthz"), timeout: .seconds(2)),
               response.status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BrowserError("Service did not become healthy.")
    }

    /// A REST client registered with the demo software statement, for a device.
    public func client(device: String = "device-" + UUID().uuidString, redirectURI: String? = nil) async throws -> RESTClient {
        var client = RESTClient(httpClient: httpClient, baseURL: baseURL, serviceProvider: "REF", deviceID: device)
        _ = try await client.registerAndAuthorize(softwareStatement: softwareStatement, redirectURI: redirectURI)
        return client
    }

    /// A new browser.
    public func browser() -> BrowserClient { BrowserClient(httpClient: httpClient) }

    /// Creates a session for `mvpd` and signs `user` in through the browser leg; returns the code and where the browser ended.
    public func signIn(_ client: RESTClient, mvpd: String = "DemoCable", user: String, password: String? = nil,
                redirectURL: String? = "adobepass://ios.app") async throws -> (code: String, outcome: BrowserClient.Outcome) {
        let answer = try await client.createSession(mvpd: mvpd, redirectURL: redirectURL)
        let session = try answer.decode(SessionResponse.self)
        guard let url = session.url, let code = session.code else { throw BrowserError("Session has no url: \(answer.text)") }
        let outcome = try await DemoSignIn.signIn(browser: browser(), authenticationURL: baseURL + url, username: user,
                                                  password: password ?? user + "-pass")
        return (code, outcome)
    }
}

/// A port that was free a moment ago on 127.0.0.1.
public func freePort() throws -> Int {
    let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
    let port = channel.localAddress?.port ?? 0
    try channel.close().wait()
    return port
}

/// A throwaway PostgreSQL database for one test, when `ENTITLE_TEST_DATABASE_URL` names a server.
public struct TestDatabase: Sendable {
    /// URL of the throwaway database.
    public let url: String
    let adminURL: String
    let name: String

    /// Creates a database when `ENTITLE_TEST_DATABASE_URL` is set; nil otherwise.
    public static func create() async throws -> TestDatabase? {
        guard let adminURL = ProcessInfo.processInfo.environment["ENTITLE_TEST_DATABASE_URL"], !adminURL.isEmpty else { return nil }
        let name = "entitle_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await withAdminEngine(adminURL) { try await $0.sql.raw("CREATE DATABASE \(unsafeRaw: String(name))").run() }
        guard let slash = adminURL.lastIndex(of: "/") else { return nil }
        let url = String(adminURL[..<slash]) + "/" + name
        return TestDatabase(url: url, adminURL: adminURL, name: String(name))
    }

    /// Drops the database.
    public func drop() async throws {
        try await Self.withAdminEngine(adminURL) { try await $0.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
    }

    /// Runs `body` on a one-connection engine to the server's admin database, closed whatever happens (a pool dropped
    /// unclosed traps in its deinit).
    static func withAdminEngine(_ adminURL: String, _ body: (DatabaseEngine) async throws -> Void) async throws {
        let engine = try DatabaseEngine.postgres(url: adminURL, logger: Logger(label: "test"), connectionsPerEventLoop: 1)
        do {
            try await body(engine)
        } catch {
            try? await engine.close()
            throw error
        }
        try await engine.close()
    }
}
