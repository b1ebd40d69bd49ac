import AsyncHTTPClient
import EntitleCore
import Foundation

/// Administration of OAuth 2.0 MVPDs: OIDC discovery, then the MVPD with its endpoints and Entitle's client there.
extension EntitleService {
    /// How Entitle signs users in at an OAuth 2.0 MVPD.
    package struct OAuth2MVPDSettings: Sendable {
        /// The OpenID issuer whose discovery document gave the endpoints, when they were discovered.
        package var issuer: String?
        /// Authorization endpoint.
        package var authorizeURL: String
        /// Token endpoint.
        package var tokenURL: String
        /// User-profile (userinfo) endpoint.
        package var userinfoURL: String
        /// Logout (end-session) endpoint, when the MVPD has one.
        package var logoutURL: String?
        /// Entitle's client id at the MVPD.
        package var clientID: String
        /// Entitle's client secret at the MVPD (stored encrypted, never logged).
        package var clientSecret: String
        /// Scopes asked for.
        package var scopes: [String] = []
        /// The userinfo claim that is the user id.
        package var userIDClaim = "sub"
        /// `client_secret_basic` (default) or `client_secret_post`.
        package var tokenAuthMethod = "client_secret_basic"
        /// Whether PKCE S256 is sent (unless discovery says the MVPD does not take it).
        package var pkce = true
        /// Accept `http` endpoints on any host (the demo world only).
        package var allowPlainHTTP = false

        /// Creates settings from endpoints given one by one.
        package init(
            authorizeURL: String, tokenURL: String, userinfoURL: String, logoutURL: String? = nil, clientID: String, clientSecret: String
        ) {
            self.authorizeURL = authorizeURL
            self.tokenURL = tokenURL
            self.userinfoURL = userinfoURL
            self.logoutURL = logoutURL
            self.clientID = clientID
            self.clientSecret = clientSecret
        }
    }

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

        enum CodingKeys: String, CodingKey {
            case issuer, authorizationEndpoint = "authorization_endpoint", tokenEndpoint = "token_endpoint"
            case userinfoEndpoint = "userinfo_endpoint", endSessionEndpoint = "end_session_endpoint"
            case codeChallengeMethodsSupported = "code_challenge_methods_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        }
    }

    /// The redirect URI to register at an OAuth 2.0 MVPD.
    package var oauth2RedirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2" }
    /// The logout callback to register at an OAuth 2.0 MVPD that has a logout endpoint.
    package var oauth2LogoutRedirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2/logout" }

    /// Reads `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4) and settings from it.
    package func discoverOAuth2(issuer: String, clientID: String, clientSecret: String) async throws -> OAuth2MVPDSettings {
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        try Self.checkEndpoint(base, name: "--oauth2-issuer")
        let url = base + "/.well-known/openid-configuration"
        let document: OAuth2Discovery
        do {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await httpClient.execute(request, timeout: .seconds(max(configuration.mvpdTimeoutSeconds, 10)))
            let body = try await response.body.collect(upTo: 256 * 1024)
            guard response.status == .ok else { throw ConfigurationError("\(url) answered HTTP \(response.status.code).") }
            do { document = try JSONDecoder().decode(OAuth2Discovery.self, from: Data(buffer: body)) } catch {
                throw ConfigurationError("\(url) is not an OpenID discovery document (authorization_endpoint, token_endpoint, issuer).")
            }
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("Cannot read \(url): \(error).")
        }
        var issued = document.issuer
        while issued.hasSuffix("/") { issued.removeLast() }
        guard issued == base else { throw ConfigurationError("The discovery document names issuer \(document.issuer), not \(base).") }
        guard let userinfo = document.userinfoEndpoint else {
            throw ConfigurationError("The discovery document has no userinfo_endpoint; give --oauth2-userinfo-url.")
        }
        var settings = OAuth2MVPDSettings(
            authorizeURL: document.authorizationEndpoint, tokenURL: document.tokenEndpoint, userinfoURL: userinfo,
            logoutURL: document.endSessionEndpoint, clientID: clientID, clientSecret: clientSecret)
        settings.issuer = base
        if let methods = document.codeChallengeMethodsSupported { settings.pkce = methods.contains("S256") }
        if let methods = document.tokenEndpointAuthMethodsSupported, !methods.contains("client_secret_basic"),
            methods.contains("client_secret_post")
        {
            settings.tokenAuthMethod = "client_secret_post"
        }
        return settings
    }

    /// Adds or updates an OAuth 2.0 MVPD and integrates it with `requestors`.
    package func saveOAuth2MVPD(id: String, options: MVPDOptions, oauth2: OAuth2MVPDSettings, requestors: [String]) async throws {
        if options.authorizeAllAuthenticated && options.authorizationURL != nil {
            throw ConfigurationError("An MVPD with an authorization URL cannot also authorize every authenticated subscriber.")
        }
        let authorization = try await checkAuthorizationSettings(mvpd: id, authorizationURL: options.authorizationURL, options.authorizationSettings)
        let http = oauth2.allowPlainHTTP
        try Self.checkEndpoint(oauth2.authorizeURL, name: "the authorization endpoint", allowPlainHTTP: http)
        try Self.checkEndpoint(oauth2.tokenURL, name: "the token endpoint", allowPlainHTTP: http)
        try Self.checkEndpoint(oauth2.userinfoURL, name: "the userinfo endpoint", allowPlainHTTP: http)
        if let logout = oauth2.logoutURL { try Self.checkEndpoint(logout, name: "the logout endpoint", allowPlainHTTP: http) }
        guard !oauth2.clientID.isEmpty, !oauth2.clientSecret.isEmpty else { throw ConfigurationError("The client id and secret must not be empty.") }
        guard ["client_secret_basic", "client_secret_post"].contains(oauth2.tokenAuthMethod) else {
            throw ConfigurationError("The token endpoint authentication is client_secret_basic or client_secret_post.")
        }
        let cipher = TokenCipher(keyStore: repository.keys, keys: keys)
        try await repository.catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: options.displayName, logoUrl: options.logoURL, kind: .oauth2, entityId: nil,
                ssoUrl: oauth2.authorizeURL, sloUrl: oauth2.logoutURL, certificates: [],
                authorizationUrl: options.authorizationURL, authorizationKey: options.authorizationKey,
                requiresSafariViewController: options.requiresSafariViewController, enablePlatformServices: false,
                boardingStatus: nil, platformMappingId: nil, displayInPlatformPicker: false, temppassMinutes: nil,
                profileTtlSeconds: options.profileTTLSeconds, encryptedAttributes: options.encryptedAttributes,
                temppassResourceLimit: nil))
        try await repository.oauth2.upsertOAuth2Settings(
            MVPDOAuth2Record(
                mvpdId: id, issuer: oauth2.issuer, authorizeURL: oauth2.authorizeURL, tokenURL: oauth2.tokenURL,
                userinfoURL: oauth2.userinfoURL, logoutURL: oauth2.logoutURL, clientID: oauth2.clientID,
                encryptedClientSecret: try await cipher.seal(oauth2.clientSecret, context: OAuth2SignIn.clientSecretContext(mvpd: id)),
                scopes: oauth2.scopes, userIDClaim: oauth2.userIDClaim, tokenAuthMethod: oauth2.tokenAuthMethod, pkce: oauth2.pkce))
        try await repository.mvpdOptions.upsertSAMLOptions(
            MVPDSAMLOptionsRecord(
                mvpdId: id, attributeMapping: options.attributeMapping, allowRSASHA1: false,
                authorizeAll: options.authorizeAllAuthenticated))
        try await storeAuthorizationSettings(mvpd: id, authorization)
        for requestor in requestors { try await repository.catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
    }

    /// An MVPD endpoint must be an absolute https URL (http only on a loopback address, for tests and development).
    static func checkEndpoint(_ url: String, name: String, allowPlainHTTP: Bool = false) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host,
            !host.isEmpty, components.fragment == nil
        else { throw ConfigurationError("\(name) \(url) is not an absolute URL.") }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && (loopback || allowPlainHTTP)) else {
            throw ConfigurationError("\(name) \(url) must be https (http only on a loopback address).")
        }
    }
}
