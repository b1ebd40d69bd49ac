import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// A known path with the wrong method: 405 with `Allow`; an unknown path: 404.
@Suite struct MethodNotAllowedTests {
    @Test func aWrongMethodIsAnswered405WithAllow() async throws {
        try await RouterService.run { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            let answer = try await client.send(.DELETE, "/healthz", authorized: false)
            #expect(answer.status == 405)
            #expect(answer.headers.first(name: "Allow") == "GET, HEAD")
            let token = try await client.send(.GET, "/o/client/token", authorized: false)
            #expect(token.status == 405)
            #expect(token.headers.first(name: "Allow") == "POST")
            #expect(try await client.send(.DELETE, "/no/such/path", authorized: false).status == 404)
        }
    }
}
