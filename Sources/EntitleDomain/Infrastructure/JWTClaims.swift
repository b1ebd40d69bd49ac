import EntitleModel
import EntitleStorage
import JWTKit

/// Claims of a software statement issued by `entitle admin software-statement create`.
package struct SoftwareStatementClaims: JWTPayload, Equatable {
    /// Issuer (the service).
    package var iss: String
    /// The statement id, also `software_id`.
    package var softwareID: String
    /// The requestor the application belongs to.
    package var requestorID: String
    /// Application name.
    package var clientName: String
    /// Allowed redirect URIs.
    package var redirectURIs: [String]
    /// Issue time, seconds.
    package var iat: Int64

    package enum CodingKeys: String, CodingKey {
        case iss, iat
        case softwareID = "software_id"
        case requestorID = "requestor_id"
        case clientName = "client_name"
        case redirectURIs = "redirect_uris"
    }

    /// Statements do not expire; revocation is checked against the database.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// Creates the value from each of its stored properties.
    package init(iss: String, softwareID: String, requestorID: String, clientName: String, redirectURIs: [String], iat: Int64) {
        self.iss = iss
        self.softwareID = softwareID
        self.requestorID = requestorID
        self.clientName = clientName
        self.redirectURIs = redirectURIs
        self.iat = iat
    }
}

/// Claims of an access token issued by `POST /o/client/token`.
package struct AccessTokenClaims: JWTPayload, Equatable {
    /// Issuer (the service).
    package var iss: String
    /// The client id.
    package var sub: String
    /// The requestor the client belongs to.
    package var requestorID: String
    /// Granted scopes, space separated.
    package var scopes: String
    /// Issue time, seconds.
    package var iat: Int64
    /// Not valid before, seconds.
    package var nbf: Int64
    /// Expiry, seconds.
    package var exp: Int64
    /// Token id.
    package var jti: String

    package enum CodingKeys: String, CodingKey {
        case iss, sub, scopes, iat, nbf, exp, jti
        case requestorID = "requestor_id"
    }

    /// Expiry is checked by the service with its own clock.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// Creates the value from each of its stored properties.
    package init(iss: String, sub: String, requestorID: String, scopes: String, iat: Int64, nbf: Int64, exp: Int64, jti: String) {
        self.iss = iss
        self.sub = sub
        self.requestorID = requestorID
        self.scopes = scopes
        self.iat = iat
        self.nbf = nbf
        self.exp = exp
        self.jti = jti
    }
}
