/// Body of `POST /o/client/register`.
public struct ClientRegistrationRequest: Codable, Sendable, Equatable {
    /// The signed software statement (a JWT) issued for the application.
    public var softwareStatement: String
    /// The redirect URI the application wants, checked against the statement's list.
    public var redirectURI: String?

    /// Creates a registration request.
    public init(softwareStatement: String, redirectURI: String? = nil) {
        self.softwareStatement = softwareStatement
        self.redirectURI = redirectURI
    }

    enum CodingKeys: String, CodingKey {
        case softwareStatement = "software_statement"
        case redirectURI = "redirect_uri"
    }
}

/// Answer of `POST /o/client/register` (201).
public struct ClientRegistration: Codable, Sendable, Equatable {
    /// The client id to use with the token endpoint.
    public var clientID: String
    /// The client secret; keep it safe.
    public var clientSecret: String
    /// Redirect URIs the client may use.
    public var redirectURIs: [String]
    /// Always `["client_credentials"]`.
    public var grantTypes: [String]
    /// Scopes granted, `["api:client:v2"]`.
    public var scopes: [String]
    /// Issue time, seconds since 1970.
    public var clientIDIssuedAt: Int64

    /// Creates a registration answer.
    public init(
        clientID: String, clientSecret: String, redirectURIs: [String], grantTypes: [String] = ["client_credentials"],
        scopes: [String] = ["api:client:v2"], clientIDIssuedAt: Int64
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
        self.scopes = scopes
        self.clientIDIssuedAt = clientIDIssuedAt
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case redirectURIs = "redirect_uris"
        case grantTypes = "grant_types"
        case scopes
        case clientIDIssuedAt = "client_id_issued_at"
    }
}

/// Answer of `POST /o/client/token`.
public struct AccessTokenResponse: Codable, Sendable, Equatable {
    /// Opaque tracking id.
    public var id: String
    /// The bearer token.
    public var accessToken: String
    /// Creation time, milliseconds since 1970.
    public var createdAt: Int64
    /// Lifetime in seconds.
    public var expiresIn: Int64
    /// Always `bearer`.
    public var tokenType: String

    /// Creates a token answer.
    public init(id: String, accessToken: String, createdAt: Int64, expiresIn: Int64, tokenType: String = "bearer") {
        self.id = id
        self.accessToken = accessToken
        self.createdAt = createdAt
        self.expiresIn = expiresIn
        self.tokenType = tokenType
    }

    enum CodingKeys: String, CodingKey {
        case id
        case accessToken = "access_token"
        case createdAt = "created_at"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}

/// The OAuth-style error body of the DCR endpoints: `{"error": "invalid_client"}`.
public struct OAuthErrorBody: Codable, Sendable, Equatable, Error {
    /// The error code (`invalid_request`, `invalid_client`, `invalid_software_statement`, …).
    public var error: String
    /// A human-readable explanation.
    public var errorDescription: String?

    /// Creates an error body.
    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
