import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import SAML
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The service and the DemoMVPD behind Hummingbird's router test harness (`app.test(.router)`): the application
/// `entitle serve` runs, without a socket, on SQLite in a temporary directory or, when `ENTITLE_TEST_DATABASE_URL` is
/// set, a throwaway PostgreSQL database. For suites that only call the HTTP API (and the browser leg, which is HTTP
/// to the same router); suites about sockets, connection limits, timeouts, real browsers or other processes use
/// ``LocalService``.
package struct RouterService: ServiceHarness {
    /// The prepared host (storage, keys, demo world); nothing listens.
    package let host: EntitleHost
    /// The service's clock.
    package let clock: ManualClock
    /// Requests go to the router test client.
    package let transport: ServiceTransport
    /// The base URL the world was seeded with; requests to it go to the router.
    package var baseURL: String { host.configuration.baseURL }

    /// Runs `body` against a prepared host behind the router test client (with the demo world unless `demo` is false);
    /// removes the storage afterwards.
    package static func run(
        rateLimit: Double = 0, burst: Double = 10, clock: ManualClock = ManualClock(), logger: Logger? = nil, demo: Bool = true,
        _ body: @escaping @Sendable (RouterService) async throws -> Void
    ) async throws {
        RSAKeySource.enableReuseInTests()
        var configuration = HostConfiguration()
        configuration.dataDirectory = NSTemporaryDirectory() + "entitle-router-" + UUID().uuidString
        configuration.demo = demo
        configuration.demoProxy = false  // as LocalService's: Demo Proxy only where a test asks
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = burst
        configuration.catalogRefresh = .zero
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        var quiet = Logger(label: "entitle.test")
        quiet.logLevel = .warning
        let database = try await ScratchDatabase.create()
        configuration.databaseURL = database?.url
        let baseURL = configuration.baseURL
        do {
            let host = try await EntitleHost.prepare(configuration: configuration, logger: logger ?? quiet, clock: clock)
            do {
                try await makeApplication(host).test(.router) { client in
                    try await body(RouterService(host: host, clock: clock, transport: .router(client, baseURL: baseURL)))
                }
            } catch {
                await host.shutdown()
                throw error
            }
            await host.shutdown()
        } catch {
            try? await database?.drop()
            throw error
        }
        try? await database?.drop()
    }

    /// The application under test, built from the host's router as ``EntitleHost/makeApplication(onServerRunning:)``
    /// builds it (minus the HTTP server). The one place the test harness assembles the router.
    package static func makeApplication(_ host: EntitleHost) -> some ApplicationProtocol {
        Application(router: host.buildRouter())
    }
}

extension ServiceTransport {
    /// Sends requests for URLs under `baseURL` to Hummingbird's router test client.
    static func router(_ client: any TestClientProtocol, baseURL: String) -> ServiceTransport {
        ServiceTransport { request in
            guard request.url.hasPrefix(baseURL) else { throw BrowserError("The router harness only serves \(baseURL): \(request.url)") }
            var uri = String(request.url.dropFirst(baseURL.count))
            if uri.isEmpty || uri.hasPrefix("?") { uri = "/" + uri }
            var fields = HTTPFields()
            for (name, value) in request.headers {
                guard let fieldName = HTTPField.Name(name) else { throw BrowserError("Invalid header name \(name)") }
                fields.append(HTTPField(name: fieldName, value: value))
            }
            let response = try await client.executeRequest(
                uri: uri, method: HTTPRequest.Method(request.method.rawValue)!, headers: fields,
                body: request.body.map { ByteBuffer(data: $0) })
            var headers = HTTPHeaders()
            for field in response.headers { headers.add(name: field.name.rawName, value: field.value) }
            return RESTClient.Answer(status: response.status.code, headers: headers, body: Data(buffer: response.body))
        }
    }
}
