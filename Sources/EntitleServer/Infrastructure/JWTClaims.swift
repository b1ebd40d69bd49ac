import JWTKit

/// Claims of a software statement issued by `entitle admin software-statement create`.
public struct SoftwareStatementClaims: JWTPayload, Equatable {
    /// Issuer (the service).
    public var iss: String
    /// The statement id, also `software_id`.
    public var softwareID: String
    /// The requestor the application belongs to.
    public var requestorID: String
    /// Application name.
    public var clientName: String
    /// Allowed redirect URIs.
    public var redirectURIs: [String]
    /// Issue time, seconds.
    public var iat: Int64

    enum CodingKeys: String, CodingKey {
        case iss, iat
        case softwareID = "software_id"
        case requestorID = "requestor_id"
        case clientName = "client_name"
        case redirectURIs = "redirect_uris"
    }

    /// Statements do not expire; revocation is checked against the database.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Claims of an access token issued by `POST /o/client/token`.
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// Issuer (the service).
    public var iss: String
    /// The client id.
    public var sub: String
    /// The requestor the client belongs to.
    public var requestorID: String
    /// Granted scopes, space separated.
    public var scopes: String
    /// Issue time, seconds.
    public var iat: Int64
    /// Not valid before, seconds.
    public var nbf: Int64
    /// Expiry, seconds.
    public var exp: Int64
    /// Token id.
    public var jti: String

    enum CodingKeys: String, CodingKey {
        case iss, sub, scopes, iat, nbf, exp, jti
        case requestorID = "requestor_id"
    }

    /// Expiry is checked by the service with its own clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
