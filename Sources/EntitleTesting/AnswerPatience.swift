import EntitleClients
import NIOCore

/// How long tests wait for one answer of a service they started (HTTP clients, the SDK's transport, SDK callbacks,
/// `entitle` processes): ``ServiceTransport/answerTimeoutSeconds``, one value for every test. Generous: the service
/// suites run about 350 tests at once on two cores, and at 10 s a dozen admin, console and foreign-IdP tests timed out
/// (operator sign-ins hash a password, foreign IdPs run xmlsec1) though nothing was wrong. A service that hangs still
/// fails the test. The slow-client and process suites keep their own, shorter limits.
package enum AnswerPatience {
    /// Seconds.
    package static let seconds = Double(ServiceTransport.answerTimeoutSeconds)
    /// The same, for AsyncHTTPClient's `execute(_:timeout:)`.
    package static let timeAmount: TimeAmount = .seconds(ServiceTransport.answerTimeoutSeconds)
}
