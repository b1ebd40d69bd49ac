import EntitleCore
import Foundation

/// The outcome of ``MediaTokenVerifier/verify(_:requestor:resource:now:)``: a status, why, and the decoded fields.
public struct VerificationResult: Sendable, Equatable {
    /// The verdict.
    public let status: VerificationStatus
    /// A fixed human-readable reason (no token content).
    public let detail: String
    /// The decoded fields; `nil` when the format is invalid. Authentic only when `signatureVerified` is true.
    public let token: ShortMediaToken?
    /// Whether a trusted key verified the signature over the body.
    public let signatureVerified: Bool

    /// Creates a result.
    public init(status: VerificationStatus, detail: String, token: ShortMediaToken?, signatureVerified: Bool) {
        self.status = status
        self.detail = detail
        self.token = token
        self.signatureVerified = signatureVerified
    }

    /// Whether the token may be honoured (`status == .valid`).
    public var isValid: Bool { status == .valid }
    /// The anonymized user-session GUID.
    public var sessionGUID: String? { token?.sessionGUID }
    /// The requestor the token was issued to.
    public var requestorID: String? { token?.requestorID }
    /// The resource the token was issued for.
    public var resourceID: String? { token?.resourceID }
    /// The MVPD that authorized the request.
    public var mvpdID: String? { token?.mvpdID }
    /// The proxy MVPD (empty when none).
    public var proxyMvpdID: String? { token?.proxyMvpdID }
    /// The issue time.
    public var issueTime: Date? { token.map { Date(timeIntervalSince1970: Double($0.issueTime) / 1000) } }
    /// The time to live.
    public var timeToLive: Duration? { token.map { .milliseconds($0.ttl) } }
    /// `issueTime + ttl` (before clock-skew tolerance).
    public var expiresAt: Date? { token.map { Date(timeIntervalSince1970: Double($0.expiryTime) / 1000) } }
}
