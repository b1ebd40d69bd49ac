/// How the next action happens: the `actionType` of a session or logout answer.
///
/// An ``OpenCode``: a newer service may answer types this version does not know; they decode unchanged.
public struct ActionType: OpenCode {
    /// The type as written on the wire.
    public let rawValue: String
    /// Creates a type from its wire text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The user takes part (a browser page).
    public static let interactive = ActionType(rawValue: "interactive")
    /// No user interaction.
    public static let direct = ActionType(rawValue: "direct")
    /// Nothing happens.
    public static let none = ActionType(rawValue: "none")
    /// The platform's single sign-on takes part.
    public static let partnerInteractive = ActionType(rawValue: "partner_interactive")
}
