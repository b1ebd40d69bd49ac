import EntitleCore
import Foundation
import Hummingbird
import SAML  // re-exports Crypto (SHA256)

/// The DemoMVPD's OAuth 2.0 authorization-code provider, for the demo MVPDs that sign in with OAuth 2.0 (DemoStream):
/// OIDC discovery (`{mvpd}/.well-known/openid-configuration`), `{mvpd}/oauth2/authorize` (the login page; PKCE S256
/// required), `{mvpd}/oauth2/token` (authorization_code and refresh_token grants, `client_secret_basic` or
/// `client_secret_post`; the client is `entitle-demo` with the authorization API key as its secret), `{mvpd}/oauth2/userinfo`
/// and `{mvpd}/oauth2/logout`. Codes and tokens are stateless HMAC tokens (``TokenSigner``): a code expires after 60 s
/// but, being stateless, is not single-use — a demo, not a production provider. The refresh token is stable.
struct DemoOAuth2Provider: Sendable {
    /// What the demo MVPD's roles share.
    let state: DemoMVPDState

    /// Entitle's client id at the demo OAuth 2.0 providers.
    static let clientID = "entitle-demo"

    /// What a sealed code or token says.
    struct OAuth2Claims: Codable, Sendable {
        /// `code`, `access` or `refresh`.
        var kind: String
        /// The provider.
        var mvpd: String
        /// The subscriber's user id.
        var sub: String
        /// Expiry, seconds since 1970.
        var exp: Double
        /// Code only: the redirect URI and PKCE challenge of the authorization request.
        var redirectURI: String?
        var challenge: String?
        /// A random value: two tokens of the same user and second differ.
        var nonce: String
    }

    /// The authorization request as the login form carries it (sealed).
    struct OAuth2Request: Codable, Sendable {
        var redirectURI: String
        var state: String
        var challenge: String
        var exp: Double
    }

    /// Registers the discovery document and the `oauth2/…` endpoints under `group`.
    func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get(":mvpd/.well-known/openid-configuration") { _, context in
            self.oauth2Discovery(providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/oauth2/authorize") { request, context in
            self.oauth2AuthorizePage(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/oauth2/authorize") { request, context in
            await self.oauth2Login(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.post(":mvpd/oauth2/token") { request, context in
            await self.oauth2Token(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/oauth2/userinfo") { request, context in
            self.oauth2UserInfo(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/oauth2/logout") { request, context in
            self.oauth2Logout(request: request, providerID: context.parameters.get("mvpd") ?? "")
        }
    }

    /// The OAuth 2.0 demo provider with this id, or nil (unknown, or a SAML provider).
    func oauth2Provider(_ id: String) -> DemoProvider? { DemoMVPD.provider(id: id).flatMap { $0.signsInWithOAuth2 ? $0 : nil } }

    /// The normalized form of `uri` (``RedirectURL``) when it has no fragment and is on the origin of a trusted service
    /// provider's ACS URL; nil otherwise. The browser is sent to this form, never to `uri` as sent.
    func trustedRedirect(_ uri: String) -> String? {
        guard let target = RedirectURL(uri), target.fragment == nil,
            state.configuration.trustedServiceProviders.contains(where: { RedirectURL($0.assertionConsumerServiceURL)?.origin == target.origin })
        else { return nil }
        return target.description
    }

    /// A sealed code or token.
    func seal(_ claims: OAuth2Claims) -> String { state.tokens.seal((try? JSONEncoder().encode(claims)) ?? Data()) }

    /// The claims of a sealed code or token, or nil when it is not one of ours.
    func open(_ token: String) -> OAuth2Claims? {
        state.tokens.open(token).flatMap { try? JSONDecoder().decode(OAuth2Claims.self, from: $0) }
    }

    /// An OAuth 2.0 error answer (`{"error": code}`).
    func oauth2Error(_ code: String, status: HTTPResponse.Status = .badRequest) -> Response {
        state.jsonResponse(["error": code], status: status)
    }

    /// `url` with `fields` added to its query.
    static func appending(_ url: String, _ fields: [(String, String)]) -> String {
        fields.isEmpty ? url : url + (url.contains("?") ? "&" : "?") + FormURLEncoding.encode(fields)
    }
}
