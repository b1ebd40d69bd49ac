import NIOCore

/// How long tests wait for one answer of a service they started (HTTP clients, the SDK's transport, `entitle`
/// processes). Generous: the suites run a hundred in-process services at once on two cores, where an answer can take a
/// minute without anything being wrong; a service that hangs still fails the test.
package enum AnswerPatience {
    /// Seconds.
    package static let seconds: Double = 120
    /// The same, for AsyncHTTPClient's `execute(_:timeout:)`.
    package static let timeAmount: TimeAmount = .seconds(120)
}
