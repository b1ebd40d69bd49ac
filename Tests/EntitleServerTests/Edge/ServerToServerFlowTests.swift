import AsyncHTTPClient
import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHost
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import TestLogCapture
import Testing

/// Adobe's server-to-server cookbook through the real service on a real socket, without any trusted proxy: a client
/// registered with a statement marked server-to-server passes each device's address in `X-Forwarded-For`, and the
/// service uses it as the device's — in the MVPD's authorization call and in the request log; an ordinary client's
/// `X-Forwarded-For` is ignored (the connection's address counts), as is a marked client's unparseable one.
@Suite struct ServerToServerFlowTests {
    static let device = ("X-Forwarded-For", "198.51.100.7, 203.0.113.9")

    /// A REST client of the network's backend: registered with a new statement marked server-to-server.
    static func backend(_ host: some ServiceHarness, device: String = "stb-" + UUID().uuidString) async throws -> RESTClient {
        let (_, statement) = try await host.service.applications.issueSoftwareStatement(
            requestor: "REF", name: "Reference backend", redirectURIs: ["adobepass://ios.app"], serverToServer: true, actor: "test")
        var client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: device)
        _ = try await client.registerAndAuthorize(softwareStatement: statement)
        return client
    }

    @Test func theBackendsForwardedAddressReachesTheMVPDAnOrdinaryClientsDoesNot() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await XACMLAuthorizationFlowTests.configure(host, url: url, kind: .rest)
                pdp.set(XACMLDocuments.permit)
                let backend = try await Self.backend(host)
                _ = try await host.signIn(backend, user: "bob")
                let body = try JSONEncoder().encode(DecisionsRequest(resources: ["news"]))
                let decided = try await backend.send(.POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body, headers: [Self.device])
                #expect(decided.status == 200, "\(decided.text)")
                #expect(pdp.asked.withLock { $0.last?.query }?.contains("IPAddress=198.51.100.7") == true, "the device's, not the backend's")

                // The statement is marked as stored (both engines), and the list shows it.
                let statements = try await host.service.applications.softwareStatements(requestor: "REF")
                #expect(statements.filter(\.serverToServer).count == 1)
                #expect(statements.contains { !$0.serverToServer }, "the demo statement is not marked")

                // A marked client's unparseable address: the connection's counts.
                for bad in ["unknown", "198.51.100.7:5555", "_hidden", ""] {
                    _ = try await backend.send(
                        .POST, "/api/v2/REF/decisions/authorize/DemoCable", json: try JSONEncoder().encode(DecisionsRequest(resources: ["sports"])),
                        headers: [("X-Forwarded-For", bad)])
                    #expect(pdp.asked.withLock { $0.last?.query }?.contains("IPAddress=127.0.0.1") == true, "\(bad)")
                }

                // An ordinary app's X-Forwarded-For names nothing: without a trusted proxy, the connection's address.
                let app = try await host.client()
                _ = try await host.signIn(app, user: "bob")
                let ordinary = try await app.send(.POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body, headers: [Self.device])
                #expect(ordinary.status == 200)
                #expect(pdp.asked.withLock { $0.last?.query }?.contains("IPAddress=127.0.0.1") == true)
            }
        }
    }

    @Test func theAdminAPIMarksAndShowsAServerToServerStatement() async throws {
        try await LocalService.run { local in
            let session = try await AdminAPITests.operatorSession(local, "ops", role: .readWrite)
            let token = try #require(session.object["token"] as? String)
            let issued = try await AdminAPITests.call(
                local, .POST, "/admin/api/software-statements",
                json: ["requestor": "REF", "name": "Backend", "redirectURIs": ["adobepass://ios.app"], "serverToServer": true], token: token)
            #expect(issued.status == 201, "\(issued.text)")
            let id = try #require(issued.object["softwareID"] as? String)
            let plain = try await AdminAPITests.call(
                local, .POST, "/admin/api/software-statements", json: ["requestor": "REF", "name": "App", "redirectURIs": ["adobepass://ios.app"]],
                token: token)
            #expect(plain.status == 201, "\(plain.text)")
            let list = try await AdminAPITests.call(local, .GET, "/admin/api/software-statements?requestor=REF", token: token)
            let statements = try #require(list.json as? [[String: Any]])
            #expect(statements.first { $0["softwareID"] as? String == id }?["serverToServer"] as? Bool == true, "\(list.text)")
            #expect(statements.filter { $0["serverToServer"] as? Bool == false }.count == statements.count - 1, "\(list.text)")
        }
    }

    @Test func theRequestLogNamesTheDeviceAndTheBackendAsPeer() async throws {
        let capture = LogCapture()
        var configuration = HostConfiguration()
        configuration.rateLimitPerSecond = 0
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await EntitleHost.runOnLoopback(
                configuration: configuration, logger: capture.logger(label: "entitle.test.s2s", level: .info), clock: ManualClock()
            ) { host in
                let (_, statement) = try await host.service.applications.issueSoftwareStatement(
                    requestor: "REF", name: "Reference backend", redirectURIs: ["adobepass://ios.app"], serverToServer: true, actor: "test")
                let base = host.configuration.baseURL
                var backend = RESTClient(httpClient: httpClient, baseURL: base, serviceProvider: "REF", deviceID: "stb-1")
                _ = try await backend.registerAndAuthorize(softwareStatement: statement)
                var app = RESTClient(httpClient: httpClient, baseURL: base, serviceProvider: "REF", deviceID: "phone-1")
                _ = try await app.registerAndAuthorize(softwareStatement: try #require(host.demoInfo).softwareStatement)
                #expect(
                    try await backend.send(.GET, "/api/v2/REF/configuration", headers: [Self.device, ("X-Request-Id", "s2s-call")]).status == 200)
                #expect(try await app.send(.GET, "/api/v2/REF/configuration", headers: [Self.device, ("X-Request-Id", "app-call")]).status == 200)
            }
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
        func field(_ name: String, of trace: String) -> String? {
            let line = capture.all.first { $0.contains("trace=\(trace)") }
            return line?.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        #expect(field("client", of: "s2s-call") == "198.51.100.7")
        #expect(field("peer", of: "s2s-call") == "127.0.0.1")
        #expect(field("client", of: "app-call") == "127.0.0.1")
        #expect(field("peer", of: "app-call") == nil)
    }
}
