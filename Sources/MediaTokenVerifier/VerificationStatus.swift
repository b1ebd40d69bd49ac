/// The verdict of a media-token check, with the meanings of Adobe's Media Token Verifier (`eReturnValue`).
/// An open set of codes: compare with the static members, never switch exhaustively.
public struct VerificationStatus: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The machine-readable name, such as `invalidSignature`.
    public let rawValue: String

    /// Creates a status from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `rawValue`.
    public var description: String { rawValue }

    /// Every check succeeded (`VALID_TOKEN`).
    public static let valid = VerificationStatus(rawValue: "valid")
    /// The token is not in the short-media-token format (`INVALID_TOKEN_FORMAT`).
    public static let invalidFormat = VerificationStatus(rawValue: "invalidFormat")
    /// No trusted key verifies the signature (`INVALID_SIGNATURE`).
    public static let invalidSignature = VerificationStatus(rawValue: "invalidSignature")
    /// Outside `issueTime … issueTime + ttl`, widened by the clock-skew tolerance (`TOKEN_EXPIRED`).
    public static let expired = VerificationStatus(rawValue: "expired")
    /// The token was issued for another resource (`INVALID_RESOURCE_ID`).
    public static let invalidResource = VerificationStatus(rawValue: "invalidResource")
    /// The token was issued to another requestor.
    public static let invalidRequestor = VerificationStatus(rawValue: "invalidRequestor")
    /// The replay guard has seen this token before (one-time use).
    public static let replayed = VerificationStatus(rawValue: "replayed")
    /// The check could not be completed, for example the replay store failed (`ERROR_UNKNOWN`).
    public static let unknownError = VerificationStatus(rawValue: "unknownError")
}
