/// Body of `POST /api/v2/{sp}/decisions/authorize|preauthorize/{mvpd}`.
public struct DecisionsRequest: Codable, Sendable, Equatable {
    /// Resource ids or MRSS fragments.
    public var resources: [String]
    /// Creates a request.
    public init(resources: [String]) { self.resources = resources }
}

/// Answer of the decisions endpoints.
public struct DecisionsResponse: Codable, Sendable, Equatable {
    /// One decision per requested resource, in request order.
    public var decisions: [Decision]
    /// Creates an answer.
    public init(decisions: [Decision]) { self.decisions = decisions }
}

/// The decision for one resource.
public struct Decision: Codable, Sendable, Equatable {
    /// The resource as requested.
    public var resource: String
    /// The service provider.
    public var serviceProvider: String
    /// The MVPD that decided.
    public var mvpd: String
    /// Who decided: ``DecisionSource/mvpd``, ``DecisionSource/degradation`` or ``DecisionSource/tempPass``.
    public var source: DecisionSource
    /// Whether access is granted.
    public var authorized: Bool
    /// The short media token (authorize only, when authorized).
    public var token: MediaTokenInfo?
    /// Why access was denied, or why no decision could be made.
    public var error: EnhancedError?
    /// Decision validity start, epoch ms.
    public var notBefore: Int64?
    /// Decision validity end, epoch ms.
    public var notAfter: Int64?

    /// Creates a decision.
    public init(
        resource: String, serviceProvider: String, mvpd: String, source: DecisionSource, authorized: Bool,
        token: MediaTokenInfo? = nil, error: EnhancedError? = nil, notBefore: Int64? = nil, notAfter: Int64? = nil
    ) {
        self.resource = resource
        self.serviceProvider = serviceProvider
        self.mvpd = mvpd
        self.source = source
        self.authorized = authorized
        self.token = token
        self.error = error
        self.notBefore = notBefore
        self.notAfter = notAfter
    }
}

/// The short media token inside a decision.
public struct MediaTokenInfo: Codable, Sendable, Equatable {
    /// Validity start, epoch ms.
    public var notBefore: Int64
    /// Validity end, epoch ms.
    public var notAfter: Int64
    /// Issue time, epoch ms.
    public var issuedAt: Int64?
    /// The Base64 short media token to hand to the player / video server.
    public var serializedToken: String
    /// Creates a token entry.
    public init(notBefore: Int64, notAfter: Int64, issuedAt: Int64? = nil, serializedToken: String) {
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.issuedAt = issuedAt
        self.serializedToken = serializedToken
    }
}
