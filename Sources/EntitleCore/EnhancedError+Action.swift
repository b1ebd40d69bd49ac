extension EnhancedError {
    /// What the client should do next about an error: the `action` field of an error body.
    ///
    /// An ``OpenCode``: a newer service may answer actions this version does not know; they travel through unchanged.
    public struct Action: OpenCode {
        /// The action as written on the wire.
        public let rawValue: String
        /// Creates an action from its wire text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Nothing the client can do.
        public static let none = Action(rawValue: "none")
        /// The integration's configuration must change.
        public static let configuration = Action(rawValue: "configuration")
        /// The client application must register again.
        public static let applicationRegistration = Action(rawValue: "application-registration")
        /// The user must authenticate again.
        public static let authentication = Action(rawValue: "authentication")
        /// The user must be authorized again.
        public static let authorization = Action(rawValue: "authorization")
        /// Degraded access applies.
        public static let degradation = Action(rawValue: "degradation")
        /// Try again.
        public static let retry = Action(rawValue: "retry")
        /// Try again after the `Retry-After` time.
        public static let retryAfter = Action(rawValue: "retry-after")
    }
}
