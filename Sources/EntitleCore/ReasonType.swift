/// Why a session answer says what it says: its `reasonType`.
///
/// An ``OpenCode``: a newer service may answer reasons this version does not know; they decode unchanged.
public struct ReasonType: OpenCode {
    /// The reason as written on the wire.
    public let rawValue: String
    /// Creates a reason from its wire text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No particular reason (not authenticated yet).
    public static let none = ReasonType(rawValue: "none")
    /// The device has a regular profile.
    public static let authenticated = ReasonType(rawValue: "authenticated")
    /// The device has a TempPass profile.
    public static let temporary = ReasonType(rawValue: "temporary")
    /// The device has a degraded profile.
    public static let degraded = ReasonType(rawValue: "degraded")
    /// The device has a profile from the platform's single sign-on.
    public static let authenticatedSSO = ReasonType(rawValue: "authenticatedSSO")
}
