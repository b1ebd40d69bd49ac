/// The authorization TTL of an integration: how long an MVPD's answer is kept (and reported).
package struct AuthorizationTTLRecord: Codable, Sendable, Equatable {
    /// Requestor, or `*` for the MVPD's default.
    package var requestorId: String
    /// MVPD.
    package var mvpdId: String
    /// Seconds (0: ask the MVPD on every decision).
    package var ttlSeconds: Int64

    /// Creates a record.
    package init(requestorId: String, mvpdId: String, ttlSeconds: Int64) {
        self.requestorId = requestorId
        self.mvpdId = mvpdId
        self.ttlSeconds = ttlSeconds
    }

    /// The requestor id that stands for every requestor.
    package static let anyRequestor = "*"
}
