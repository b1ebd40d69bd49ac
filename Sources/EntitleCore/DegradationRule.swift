/// A degradation rule on a (requestor, MVPD) integration, which keeps viewers watching when an MVPD fails.
///
/// An ``OpenCode``: a rule stored by a newer instance sharing the database is read without failing and applies no
/// behaviour here. Admin input must be one of ``known``; anything else is refused.
public struct DegradationRule: OpenCode {
    /// The rule as stored and typed by an admin.
    public let rawValue: String
    /// Creates a rule from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Everyone who picks the MVPD is authenticated without its login (a `degraded` profile).
    public static let authnAll = DegradationRule(rawValue: "authn-all")
    /// Every authorization is granted without asking the MVPD.
    public static let authzAll = DegradationRule(rawValue: "authz-all")
    /// Every authorization is denied.
    public static let authzNone = DegradationRule(rawValue: "authz-none")

    /// The rules this version applies, in the order admins see them.
    public static let known: [DegradationRule] = [.authnAll, .authzAll, .authzNone]
}
