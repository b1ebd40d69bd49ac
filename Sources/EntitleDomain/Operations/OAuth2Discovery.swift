import EntitleModel
import EntitleStorage
import Foundation

/// The parts of an OpenID provider's discovery document Entitle uses.
package struct OAuth2Discovery: Decodable, Sendable {
    /// The issuer.
    package var issuer: String
    /// `authorization_endpoint`.
    package var authorizationEndpoint: String
    /// `token_endpoint`.
    package var tokenEndpoint: String
    /// `userinfo_endpoint`.
    package var userinfoEndpoint: String?
    /// `end_session_endpoint`.
    package var endSessionEndpoint: String?
    /// `code_challenge_methods_supported`.
    package var codeChallengeMethodsSupported: [String]?
    /// `token_endpoint_auth_methods_supported`.
    package var tokenEndpointAuthMethodsSupported: [String]?

    package enum CodingKeys: String, CodingKey {
        case issuer, authorizationEndpoint = "authorization_endpoint", tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint", endSessionEndpoint = "end_session_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }

    /// Creates the value from each of its stored properties.
    package init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, userinfoEndpoint: String? = nil, endSessionEndpoint: String? = nil,
        codeChallengeMethodsSupported: [String]? = nil, tokenEndpointAuthMethodsSupported: [String]? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
    }
}
