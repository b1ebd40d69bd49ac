import EntitleClients
import NIOCore

/// How long tests wait for one answer of a service they started (HTTP clients, the SDK's transport, SDK callbacks,
/// `entitle` processes): ``ServiceTransport/answerTimeoutSeconds``. The test command runs the suites by layer, so no
/// answer waits for a core; a service that hangs fails the test within this time. The slow-client and process suites
/// (connection limits, readiness, a database stopped) keep their own limits.
package enum AnswerPatience {
    /// Seconds.
    package static let seconds = Double(ServiceTransport.answerTimeoutSeconds)
    /// The same, for AsyncHTTPClient's `execute(_:timeout:)`.
    package static let timeAmount: TimeAmount = .seconds(ServiceTransport.answerTimeoutSeconds)
}
