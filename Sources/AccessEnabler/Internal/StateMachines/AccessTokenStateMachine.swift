import Foundation

/// Client credentials from Dynamic Client Registration.
struct ClientCredentials: Codable, Sendable, Equatable {
    var clientID: String
    var clientSecret: String
    var redirectURIs: [String]
}

/// A cached access token (kept in the token store too, so a new process reuses it until it expires).
struct CachedAccessToken: Codable, Sendable, Equatable {
    var value: String
    var expiresAt: Date
}

/// Single-flight access-token logic (value type; the ``CredentialManager`` actor performs the actions).
///
/// One refresh at a time: the first caller that finds no usable token starts a refresh (registering first when
/// there are no credentials); callers arriving while it runs wait for its outcome. A token rejected with 401 is
/// dropped only if it is still the current one, so N concurrent 401s cause one refresh, not N.
struct AccessTokenStateMachine: Sendable {
    /// Tokens closer than this to expiry are refreshed early.
    static let expirySkew: TimeInterval = 60

    enum Action: Equatable {
        /// Use this token.
        case use(String)
        /// Register the client, then fetch a token.
        case register
        /// Fetch a token with these credentials.
        case fetchToken(ClientCredentials)
        /// A refresh is running: wait for it.
        case wait
    }

    private(set) var credentials: ClientCredentials?
    private(set) var token: CachedAccessToken?
    private(set) var refreshing = false

    init(credentials: ClientCredentials? = nil, token: CachedAccessToken? = nil) {
        self.credentials = credentials
        self.token = credentials == nil ? nil : token
    }

    /// A caller needs a token at `now`.
    mutating func tokenNeeded(now: Date) -> Action {
        if let token, token.expiresAt.timeIntervalSince(now) > Self.expirySkew { return .use(token.value) }
        if refreshing { return .wait }
        refreshing = true
        token = nil
        if let credentials { return .fetchToken(credentials) }
        return .register
    }

    /// Registration succeeded: fetch a token next.
    mutating func registered(_ credentials: ClientCredentials) -> Action {
        self.credentials = credentials
        return .fetchToken(credentials)
    }

    /// The token endpoint answered `invalid_client`: forget the credentials and register again (once per refresh).
    mutating func credentialsRejected() -> Action {
        credentials = nil
        return .register
    }

    /// The refresh produced `token`; waiters get it.
    mutating func refreshSucceeded(_ token: CachedAccessToken) {
        self.token = token
        refreshing = false
    }

    /// The refresh failed; waiters get the error.
    mutating func refreshFailed() {
        refreshing = false
    }

    /// A request with `value` was answered 401. Returns true when the token was current and has been dropped.
    @discardableResult
    mutating func tokenRejected(_ value: String, clientRevoked: Bool) -> Bool {
        if clientRevoked { credentials = nil }
        guard token?.value == value else { return clientRevoked }
        token = nil
        return true
    }
}
