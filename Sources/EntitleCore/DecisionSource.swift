/// Who made an authorization decision: the `source` field of a ``Decision``.
///
/// An ``OpenCode``: a newer service may name sources this version does not know; they decode unchanged.
public struct DecisionSource: OpenCode {
    /// The source as written on the wire.
    public let rawValue: String
    /// Creates a source from its wire text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The MVPD decided (or the service on its behalf, for an authorize-all integration).
    public static let mvpd = DecisionSource(rawValue: "mvpd")
    /// A degradation rule decided, or the profile is a degraded one.
    public static let degradation = DecisionSource(rawValue: "degradation")
    /// A TempPass decided.
    public static let tempPass = DecisionSource(rawValue: "temppass")
}
