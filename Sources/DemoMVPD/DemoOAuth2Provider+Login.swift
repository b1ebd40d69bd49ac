import EntitleCore
import Foundation
import Hummingbird
import SAML  // re-exports Crypto (SHA256)

/// Sign-in and sign-out at the OAuth 2.0 demo provider: discovery, the authorization endpoint and its login page, logout.
extension DemoOAuth2Provider {

    /// `GET {mvpd}/.well-known/openid-configuration`.
    func oauth2Discovery(providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return state.notFoundPage() }
        let base = provider.entityID(baseURL: state.configuration.baseURL)
        let document: [String: JSONValue] = [
            "issuer": .string(base), "authorization_endpoint": .string(base + "/oauth2/authorize"),
            "token_endpoint": .string(base + "/oauth2/token"), "userinfo_endpoint": .string(base + "/oauth2/userinfo"),
            "end_session_endpoint": .string(base + "/oauth2/logout"), "response_types_supported": .array([.string("code")]),
            "grant_types_supported": .array([.string("authorization_code"), .string("refresh_token")]),
            "code_challenge_methods_supported": .array([.string("S256")]),
            "token_endpoint_auth_methods_supported": .array([.string("client_secret_basic"), .string("client_secret_post")]),
        ]
        return state.jsonResponse(document)
    }

    /// `GET {mvpd}/oauth2/authorize`: checks the request, shows the login page.
    func oauth2AuthorizePage(request: Request, providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return state.notFoundPage() }
        let query = state.queryItems(request)
        guard query["response_type"] == "code", query["client_id"] == Self.clientID, let redirectURI = query["redirect_uri"].flatMap(trustedRedirect)
        else {
            return state.errorPage(
                provider, status: .badRequest, heading: "Invalid sign-in request",
                message: "The request must be response_type=code from the client \(Self.clientID) with a registered redirect_uri.")
        }
        guard query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], challenge.count == 43 else {
            return state.redirect(to: Self.appending(redirectURI, [("error", "invalid_request"), ("state", query["state"] ?? "")]), status: .found)
        }
        let sealed = OAuth2Request(
            redirectURI: redirectURI, state: query["state"] ?? "", challenge: challenge,
            exp: state.configuration.now().timeIntervalSince1970 + state.configuration.loginFormLifetime)
        return oauth2LoginPage(provider, request: sealed, username: "", error: nil)
    }

    /// The login page carrying the sealed authorization request.
    private func oauth2LoginPage(_ provider: DemoProvider, request: OAuth2Request, username: String, error: String?) -> Response {
        let accounts = state.configuration.showDemoAccounts ? DemoSubscriber.all.filter { $0.providerID == provider.id } : []
        let html = state.pages.login(
            provider: provider, action: "\(state.configuration.baseURL)/\(provider.id)/oauth2/authorize",
            samlRequest: state.tokens.seal((try? JSONEncoder().encode(request)) ?? Data()), relayState: "", csrf: "", username: username,
            errorMessage: error, demoAccounts: accounts.map { DemoPages.DemoAccount(username: $0.username, password: $0.password) })
        return state.htmlResponse(html, status: error == nil ? .ok : .unauthorized)
    }

    /// `POST {mvpd}/oauth2/authorize`: the login form; on success the browser goes to the redirect URI with a code.
    func oauth2Login(request: Request, providerID: String) async -> Response {
        guard let provider = oauth2Provider(providerID) else { return state.notFoundPage() }
        guard let form = await state.formFields(request), let sealed = form["SAMLRequest"].flatMap(state.tokens.open),
            let authorization = try? JSONDecoder().decode(OAuth2Request.self, from: sealed),
            authorization.exp > state.configuration.now().timeIntervalSince1970
        else {
            return state.errorPage(
                provider, status: .badRequest, heading: "This sign-in page has expired",
                message: "Go back to the app and start signing in again.")
        }
        guard
            let subscriber = DemoSubscriber.authenticate(
                username: form["username"] ?? "", password: form["password"] ?? "", providerID: provider.id)
        else {
            return oauth2LoginPage(provider, request: authorization, username: form["username"] ?? "", error: "Wrong username or password.")
        }
        let code = seal(
            OAuth2Claims(
                kind: "code", mvpd: provider.id, sub: subscriber.userID, exp: state.configuration.now().timeIntervalSince1970 + 60,
                redirectURI: authorization.redirectURI, challenge: authorization.challenge, nonce: TokenSigner.randomToken()))
        state.logger.info("demo MVPD OAuth 2.0 sign-in", metadata: ["mvpd": "\(provider.id)", "userID": "\(subscriber.userID)"])
        return state.redirect(to: Self.appending(authorization.redirectURI, [("code", code), ("state", authorization.state)]), status: .found)
    }

    /// `GET {mvpd}/oauth2/logout`: back to a trusted service provider's `post_logout_redirect_uri`, with `state`.
    func oauth2Logout(request: Request, providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return state.notFoundPage() }
        let query = state.queryItems(request)
        if let target = query["post_logout_redirect_uri"].flatMap(trustedRedirect) {
            return state.redirect(to: Self.appending(target, query["state"].map { [("state", $0)] } ?? []), status: .found)
        }
        return state.errorPage(provider, status: .ok, heading: "Signed out", message: "You are signed out of \(provider.displayName).")
    }

}
