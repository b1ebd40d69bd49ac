import Foundation
import Testing

@testable import AccessEnabler

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport whose every request fails with `error`.
struct FailingTransport: HTTPTransport {
    let error: URLError
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw error }
}

/// A network failure says why (timed out, refused, no such host), so an app or the command line can tell a slow
/// service from a missing one; the status id the callbacks get is unchanged.
@Suite struct NetworkReasonTests {
    @Test(arguments: [
        (URLError.Code.timedOut, AccessEnablerError.NetworkReason.timedOut),
        (.cannotConnectToHost, .refused), (.notConnectedToInternet, .refused),
        (.cannotFindHost, .hostNotFound), (.dnsLookupFailed, .hostNotFound),
        (.networkConnectionLost, .connectionLost),
        (.secureConnectionFailed, .secureConnectionFailed), (.serverCertificateUntrusted, .secureConnectionFailed),
        (.badServerResponse, .other),
    ])
    func urlErrorsMapToTheirReason(code: URLError.Code, reason: AccessEnablerError.NetworkReason) {
        #expect(AccessEnablerError.NetworkReason(URLError(code)) == reason)
    }

    @Test func anErrorThatIsNotAURLErrorIsOther() {
        #expect(AccessEnablerError.NetworkReason(CocoaError(.fileNoSuchFile)) == .other)
    }

    @Test(arguments: [(URLError.Code.timedOut, "timed out"), (.cannotConnectToHost, "connection refused")])
    func aFailedConfigurationCarriesTheReason(code: URLError.Code, text: String) async throws {
        let enabler = AccessEnabler(
            softwareStatement: "statement", serviceBaseURL: URL(string: "http://127.0.0.1:9")!,
            configuration: AccessEnabler.Configuration(transport: FailingTransport(error: URLError(code)), tokenStore: InMemoryTokenStore()))
        do throws(AccessEnablerError) {
            _ = try await enabler.configure(requestorID: "REF")
            Issue.record("configuration should fail when the transport does")
        } catch {
            #expect(error.code == .network)
            #expect(error.networkReason == AccessEnablerError.NetworkReason(URLError(code)))
            #expect(error.message.contains("(\(text))"), "\(error.message)")
            #expect(error.statusID == AccessEnablerStatus.ID.serviceNotFound)
        }
    }
}
