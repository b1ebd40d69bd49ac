/// Answer of `GET /api/v2/{sp}/logout[/{mvpd}]`.
public struct LogoutsResponse: Codable, Sendable, Equatable {
    /// One entry per MVPD logged out.
    public var logouts: [String: LogoutAction]
    /// Creates an answer.
    public init(logouts: [String: LogoutAction]) { self.logouts = logouts }
}

/// What the client must do to finish logging out of one MVPD.
public struct LogoutAction: Codable, Sendable, Equatable {
    /// `logout` (open `url`), `complete`, or `partner_logout`.
    public var actionName: ActionName
    /// `interactive`, `none` or `partner_interactive`.
    public var actionType: ActionType
    /// The MVPD.
    public var mvpd: String?
    /// The page to open to finish (interactive only).
    public var url: String?
    /// Creates a logout action.
    public init(actionName: ActionName, actionType: ActionType, mvpd: String? = nil, url: String? = nil) {
        self.actionName = actionName
        self.actionType = actionType
        self.mvpd = mvpd
        self.url = url
    }
}
