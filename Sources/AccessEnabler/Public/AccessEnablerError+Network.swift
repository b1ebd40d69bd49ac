import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AccessEnablerError {
    /// Why a request did not reach the service, when the transport said (``AccessEnablerError/network`` failures).
    public enum NetworkReason: String, Sendable, Equatable {
        /// No answer within the transport's timeout: the service is reachable but slow, or a firewall drops packets.
        case timedOut = "timed out"
        /// Nothing listens there (connection refused) or the host cannot be reached.
        case refused = "connection refused"
        /// The host name does not resolve.
        case hostNotFound = "host not found"
        /// The connection broke before the answer was complete.
        case connectionLost = "connection lost"
        /// The TLS handshake failed (certificate not trusted, wrong name, protocol mismatch).
        case secureConnectionFailed = "TLS handshake failed"
        /// Any other transport failure.
        case other = "network failure"

        /// The reason of a transport error (`URLError` codes; anything else is ``other``).
        public init(_ error: any Error) {
            guard let error = error as? URLError else {
                self = .other
                return
            }
            switch error.code {
            case .timedOut: self = .timedOut
            case .cannotConnectToHost, .notConnectedToInternet: self = .refused
            case .cannotFindHost, .dnsLookupFailed: self = .hostNotFound
            case .networkConnectionLost: self = .connectionLost
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                self = .secureConnectionFailed
            default: self = .other
            }
        }
    }

    /// A ``Code/network`` failure of a request: `context` says which (“Client registration failed”), the transport's
    /// error is kept as text in the message and as a ``NetworkReason``.
    static func network(_ context: String, transportError error: any Error) -> AccessEnablerError {
        let reason = NetworkReason(error)
        var failure = AccessEnablerError(code: .network, message: "\(context) (\(reason.rawValue)): \(error)")
        failure.networkReason = reason
        return failure
    }
}
