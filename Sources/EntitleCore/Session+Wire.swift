/// Answer of the session endpoints (`POST/GET /api/v2/{sp}/sessions[/{code}]`): what the client must do next.
public struct SessionResponse: Codable, Sendable, Equatable {
    /// `authenticate`, `resume`, `authorize`, `retry` or `partner_profile`.
    public var actionName: ActionName
    /// `interactive`, `direct`, `none` or `partner_interactive`.
    public var actionType: ActionType
    /// `none`, `authenticated`, `temporary`, `degraded` or `authenticatedSSO`.
    public var reasonType: ReasonType
    /// Where to go next (relative path).
    public var url: String?
    /// Parameters still needed to resume.
    public var missingParameters: [String]?
    /// Parameters the session already has (GET only).
    public var existingParameters: [String: String]?
    /// The authentication (registration) code.
    public var code: String?
    /// Session id.
    public var sessionId: String?
    /// The selected MVPD.
    public var mvpd: String?
    /// The service provider.
    public var serviceProvider: String?
    /// Session validity start, epoch ms as a string (as documented).
    public var notBefore: String?
    /// Session validity end, epoch ms as a string (as documented).
    public var notAfter: String?
    /// Partner single sign-on: what to ask the platform for (`partner_profile` only).
    public var authenticationRequest: PartnerAuthenticationRequest?

    /// Creates a session answer.
    public init(
        actionName: ActionName, actionType: ActionType, reasonType: ReasonType, url: String? = nil,
        missingParameters: [String]? = nil, existingParameters: [String: String]? = nil, code: String? = nil,
        sessionId: String? = nil, mvpd: String? = nil, serviceProvider: String? = nil,
        notBefore: String? = nil, notAfter: String? = nil, authenticationRequest: PartnerAuthenticationRequest? = nil
    ) {
        self.actionName = actionName
        self.actionType = actionType
        self.reasonType = reasonType
        self.url = url
        self.missingParameters = missingParameters
        self.existingParameters = existingParameters
        self.code = code
        self.sessionId = sessionId
        self.mvpd = mvpd
        self.serviceProvider = serviceProvider
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.authenticationRequest = authenticationRequest
    }
}
