import Foundation
import Testing
@testable import AccessEnabler

/// A transport that only counts: any request reaching it is a connection attempt.
final class CountingTransport: HTTPTransport {
    let requests = Locked<[URL]>([])
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request.url) }
        throw URLError(.cannotConnectToHost)
    }
}

/// There is no built-in service address: an app names its service, and a missing one is a configuration error.
@Suite struct ServiceURLTests {
    @Test func noNamedServiceIsCFG100WithoutAnyConnection() async throws {
        let transport = CountingTransport()
        let enabler = AccessEnabler(
            softwareStatement: "statement",
            configuration: AccessEnabler.Configuration(transport: transport, tokenStore: InMemoryTokenStore()))
        #expect(AccessEnabler.defaultServiceBaseURL == nil)  // the test bundle has no EntitleServiceURL key
        do throws(AccessEnablerError) {
            _ = try await enabler.configure(requestorID: "REF")
            Issue.record("configuration should fail without a service")
        } catch {
            #expect(error.statusID == AccessEnablerStatus.ID.serviceNotNamed)
            #expect(error.code == .notConfigured)
        }
        #expect(transport.requests.value.isEmpty)
    }
}
