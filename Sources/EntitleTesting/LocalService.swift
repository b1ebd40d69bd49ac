import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import SAML
import Logging

/// A real Entitle service with the DemoMVPD on an ephemeral loopback port, on SQLite in a temporary directory or,
/// when `ENTITLE_TEST_DATABASE_URL` is set, on a fresh PostgreSQL database created for the run and dropped after it.
/// Built on ``EntitleHost/runOnLoopback(configuration:temporaryDataDirectory:logger:clock:_:)``, as `entitle bench` runs its
/// in-process service; everything stops when `body` returns.
package struct LocalService: ServiceHarness {
    /// The running host.
    package let host: EntitleHost
    /// Its base URL.
    package let baseURL: String
    /// Its data directory.
    package let dataDirectory: String
    /// An HTTP client that does not follow redirects (the browser client follows them itself).
    package let httpClient: HTTPClient
    /// The service's clock.
    package let clock: ManualClock

    /// The clients' transport: real HTTP with ``httpClient``.
    package var transport: ServiceTransport { .httpClient(httpClient) }

    /// Runs `body` with a started host (trusting the forwarding headers of `trustedProxies`, the DemoMVPD sending channel
    /// lineups for `demoLineupProviders`, reading MVPD metadata URLs again on the `metadataRefresh` schedule, the demo
    /// world with Demo Proxy and its proxied MVPDs when `demoProxy`); stops everything afterwards.
    /// The catalog is checked before every use unless `catalogRefresh` says otherwise (tests that change it from
    /// another process then see the change at once).
    package static func run(
        rateLimit: Double = 0, burst: Double = 10, clock: ManualClock = ManualClock(),
        databaseURL: String? = nil, dataDirectory: String? = nil, catalogRefresh: Duration = .zero,
        profileCacheBound: Duration = ProfileCache.defaultBound, trustedProxies: [IPAddressRange] = [],
        demoLineupProviders: Set<String> = ["DemoSSO"], metadataRefresh: (interval: Duration, check: Duration)? = nil,
        demoProxy: Bool = false, _ body: (LocalService) async throws -> Void
    ) async throws {
        var configuration = HostConfiguration()
        configuration.demoProxy = demoProxy
        if let metadataRefresh {
            (configuration.metadataRefreshInterval, configuration.metadataRefreshCheck) = (metadataRefresh.interval, metadataRefresh.check)
        }
        configuration.demoLineupProviders = demoLineupProviders
        configuration.trustedProxies = trustedProxies
        configuration.databaseURL = databaseURL
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = burst
        configuration.catalogRefresh = catalogRefresh
        configuration.profileCacheBound = profileCacheBound
        // Operator passwords hashed at scrypt N = 2^10 here: dozens of suites sign operators in at once, and at the
        // production 2^16 (64 MiB each) their queue outlasted the tests' timeouts. OperatorPasswordTests checks 2^16.
        configuration.operatorPasswordLogRounds = 10
        // The services' and demo world's RSA keys come from a small pool made once per test process (`RSAKeySource`).
        RSAKeySource.enableReuseInTests()
        if let dataDirectory { configuration.dataDirectory = dataDirectory }
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await EntitleHost.runOnLoopback(
                configuration: configuration, temporaryDataDirectory: dataDirectory == nil,
                logger: logger, clock: clock
            ) { host in
                let local = LocalService(
                    host: host, baseURL: host.configuration.baseURL, dataDirectory: host.configuration.dataDirectory,
                    httpClient: httpClient, clock: clock)
                try await local.waitUntilHealthy()
                try await body(local)
            }
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }

    /// Two instances on one database (a throwaway PostgreSQL database when `ENTITLE_TEST_DATABASE_URL` is set, else
    /// one SQLite file in a shared data directory) and one clock; the database and the folder are removed whatever
    /// `body` does.
    package static func runTwoInstances(
        clock: ManualClock = ManualClock(), catalogRefresh: Duration = .zero,
        profileCacheBound: Duration = ProfileCache.defaultBound,
        _ body: (_ first: LocalService, _ second: LocalService) async throws -> Void
    ) async throws {
        // Both instances share storage, so a port taken by another process between choosing and binding it restarts
        // the pair on fresh storage (as a single instance's start does), until the body has run.
        for attempt in 1...5 {
            let database = try await ScratchDatabase.create()
            let directory = NSTemporaryDirectory() + "entitle-instances-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var bodyStarted = false
            do {
                try await run(
                    clock: clock, databaseURL: database?.url, dataDirectory: directory, catalogRefresh: catalogRefresh,
                    profileCacheBound: profileCacheBound
                ) { first in
                    try await run(
                        clock: clock, databaseURL: database?.url, dataDirectory: directory, catalogRefresh: catalogRefresh,
                        profileCacheBound: profileCacheBound
                    ) { second in
                        bodyStarted = true
                        try await body(first, second)
                    }
                }
            } catch is EntitleHost.PortTaken where !bodyStarted && attempt < 5 {
                try? await database?.drop()
                continue
            } catch {
                try? await database?.drop()
                throw error
            }
            try? await database?.drop()
            return
        }
    }

    /// Waits until `/healthz` answers.
    package func waitUntilHealthy() async throws {
        for _ in 0..<100 {
            if let response = try? await httpClient.execute(HTTPClientRequest(url: baseURL + "/healthz"), timeout: .seconds(2)),
                response.status == .ok
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BrowserError("Service did not become healthy.")
    }
}
