/// What the client must do next: the `actionName` of a session answer (``SessionResponse``) or of a logout answer
/// (``LogoutAction``).
///
/// An ``OpenCode``: a newer service may answer names this version does not know; they decode unchanged.
public struct ActionName: OpenCode {
    /// The name as written on the wire.
    public let rawValue: String
    /// Creates a name from its wire text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Open the URL for the MVPD's login.
    public static let authenticate = ActionName(rawValue: "authenticate")
    /// Send the missing parameters (the MVPD) to resume the session.
    public static let resume = ActionName(rawValue: "resume")
    /// Authenticated already: go on to authorization.
    public static let authorize = ActionName(rawValue: "authorize")
    /// Try again.
    public static let retry = ActionName(rawValue: "retry")
    /// Ask the platform's single sign-on for a profile.
    public static let partnerProfile = ActionName(rawValue: "partner_profile")
    /// Open the URL to finish logging out at the MVPD.
    public static let logout = ActionName(rawValue: "logout")
    /// Logged out; nothing else to do.
    public static let complete = ActionName(rawValue: "complete")
    /// Log out of the platform's single sign-on too.
    public static let partnerLogout = ActionName(rawValue: "partner_logout")
}
