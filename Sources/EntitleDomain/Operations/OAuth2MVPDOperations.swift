import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// OAuth 2.0 MVPDs: OIDC discovery, then the MVPD with its endpoints and Entitle's client there (the client secret
/// encrypted with the token-encryption key), for `entitle admin mvpd add --oauth2-…`, the admin API, the console and the
/// demo seeding.
package struct OAuth2MVPDOperations: Sendable {
    /// MVPDs and integrations as the protocols see them.
    package let catalog: CatalogStore
    /// Per-MVPD options.
    package let mvpdOptions: MVPDOptionsStore
    /// OAuth 2.0 MVPD settings.
    package let oauth2Store: OAuth2Store
    /// Encrypts the client secret.
    package let cipher: TokenCipher
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder
    /// Reads discovery documents.
    package let httpClient: HTTPClient
    /// The public base URL (the redirect URIs) and the MVPD timeout.
    package let configuration: ServiceConfiguration

    /// The redirect URI to register at an OAuth 2.0 MVPD.
    package var redirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2" }
    /// The logout callback to register at an OAuth 2.0 MVPD that has a logout endpoint.
    package var logoutRedirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2/logout" }

    /// Reads `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4) and settings from it.
    package func discover(issuer: String, clientID: String, clientSecret: String) async throws -> OAuth2MVPDSettings {
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
    package func save(id: String, options: MVPDOptions, oauth2: OAuth2MVPDSettings, requestors: [String]) async throws {
        if options.authorizeAllAuthenticated && options.authorizationURL != nil {
            throw ConfigurationError("An MVPD with an authorization URL cannot also authorize every authenticated subscriber.")
        }
        let authorization = try await lookups.checkAuthorizationSettings(
            mvpd: id, authorizationURL: options.authorizationURL, options.authorizationSettings)
        let http = oauth2.allowPlainHTTP
        try Self.checkEndpoint(oauth2.authorizeURL, name: "the authorization endpoint", allowPlainHTTP: http)
        try Self.checkEndpoint(oauth2.tokenURL, name: "the token endpoint", allowPlainHTTP: http)
        try Self.checkEndpoint(oauth2.userinfoURL, name: "the userinfo endpoint", allowPlainHTTP: http)
        if let logout = oauth2.logoutURL { try Self.checkEndpoint(logout, name: "the logout endpoint", allowPlainHTTP: http) }
        guard !oauth2.clientID.isEmpty, !oauth2.clientSecret.isEmpty else { throw ConfigurationError("The client id and secret must not be empty.") }
        guard ["client_secret_basic", "client_secret_post"].contains(oauth2.tokenAuthMethod) else {
            throw ConfigurationError("The token endpoint authentication is client_secret_basic or client_secret_post.")
        }
        try await catalog.upsertMVPD(
            MVPDRecord(
                id: id, displayName: options.displayName, logoUrl: options.logoURL, kind: .oauth2, entityId: nil,
                ssoUrl: oauth2.authorizeURL, sloUrl: oauth2.logoutURL, certificates: [],
                authorizationUrl: options.authorizationURL, authorizationKey: options.authorizationKey,
                requiresSafariViewController: options.requiresSafariViewController, enablePlatformServices: false,
                boardingStatus: nil, platformMappingId: nil, displayInPlatformPicker: false, temppassMinutes: nil,
                profileTtlSeconds: options.profileTTLSeconds, encryptedAttributes: options.encryptedAttributes,
                temppassResourceLimit: nil))
        try await oauth2Store.upsertOAuth2Settings(
            MVPDOAuth2Record(
                mvpdId: id, issuer: oauth2.issuer, authorizeURL: oauth2.authorizeURL, tokenURL: oauth2.tokenURL,
                userinfoURL: oauth2.userinfoURL, logoutURL: oauth2.logoutURL, clientID: oauth2.clientID,
                encryptedClientSecret: try await cipher.seal(oauth2.clientSecret, context: OAuth2SignIn.clientSecretContext(mvpd: id)),
                scopes: oauth2.scopes, userIDClaim: oauth2.userIDClaim, tokenAuthMethod: oauth2.tokenAuthMethod, pkce: oauth2.pkce))
        try await mvpdOptions.upsertSAMLOptions(
            MVPDSAMLOptionsRecord(
                mvpdId: id, attributeMapping: options.attributeMapping, allowRSASHA1: false,
                authorizeAll: options.authorizeAllAuthenticated))
        try await lookups.storeAuthorizationSettings(mvpd: id, authorization)
        for requestor in requestors { try await catalog.setIntegration(requestor: requestor, mvpd: id, enabled: true) }
    }

    /// An MVPD endpoint must be an absolute https URL (http only on a loopback address, for tests and development).
    package static func checkEndpoint(_ url: String, name: String, allowPlainHTTP: Bool = false) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host,
            !host.isEmpty, components.fragment == nil
        else { throw ConfigurationError("\(name) \(url) is not an absolute URL.") }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && (loopback || allowPlainHTTP)) else {
            throw ConfigurationError("\(name) \(url) must be https (http only on a loopback address).")
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: CatalogStore, mvpdOptions: MVPDOptionsStore, oauth2Store: OAuth2Store, cipher: TokenCipher, lookups: AdminCatalog,
        changes: ChangeRecorder, httpClient: HTTPClient, configuration: ServiceConfiguration
    ) {
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.oauth2Store = oauth2Store
        self.cipher = cipher
        self.lookups = lookups
        self.changes = changes
        self.httpClient = httpClient
        self.configuration = configuration
    }
}
