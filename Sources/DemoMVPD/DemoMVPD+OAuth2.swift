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
extension DemoMVPD {
    /// Entitle's client id at the demo OAuth 2.0 providers.
    package static let oauth2ClientID = "entitle-demo"

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

    func addOAuth2Routes<Context: RequestContext>(to group: RouterGroup<Context>) {
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

    func oauth2Provider(_ id: String) -> DemoProvider? { Self.provider(id: id).flatMap { $0.signsInWithOAuth2 ? $0 : nil } }

    func oauth2Discovery(providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return notFoundPage() }
        let base = provider.entityID(baseURL: configuration.baseURL)
        let document: [String: JSONValue] = [
            "issuer": .string(base), "authorization_endpoint": .string(base + "/oauth2/authorize"),
            "token_endpoint": .string(base + "/oauth2/token"), "userinfo_endpoint": .string(base + "/oauth2/userinfo"),
            "end_session_endpoint": .string(base + "/oauth2/logout"), "response_types_supported": .array([.string("code")]),
            "grant_types_supported": .array([.string("authorization_code"), .string("refresh_token")]),
            "code_challenge_methods_supported": .array([.string("S256")]),
            "token_endpoint_auth_methods_supported": .array([.string("client_secret_basic"), .string("client_secret_post")]),
        ]
        return jsonResponse(document)
    }

    /// `GET {mvpd}/oauth2/authorize`: checks the request, shows the login page.
    func oauth2AuthorizePage(request: Request, providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return notFoundPage() }
        let query = queryItems(request)
        guard query["response_type"] == "code", query["client_id"] == Self.oauth2ClientID, let redirectURI = query["redirect_uri"],
            isTrustedRedirect(redirectURI)
        else {
            return errorPage(
                provider, status: .badRequest, heading: "Invalid sign-in request",
                message: "The request must be response_type=code from the client \(Self.oauth2ClientID) with a registered redirect_uri.")
        }
        guard query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], challenge.count == 43 else {
            return redirect(to: Self.appending(redirectURI, [("error", "invalid_request"), ("state", query["state"] ?? "")]), status: .found)
        }
        let sealed = OAuth2Request(
            redirectURI: redirectURI, state: query["state"] ?? "", challenge: challenge,
            exp: configuration.now().timeIntervalSince1970 + configuration.loginFormLifetime)
        return oauth2LoginPage(provider, request: sealed, username: "", error: nil)
    }

    private func oauth2LoginPage(_ provider: DemoProvider, request: OAuth2Request, username: String, error: String?) -> Response {
        let accounts = configuration.showDemoAccounts ? DemoSubscriber.all.filter { $0.providerID == provider.id } : []
        let html = pages.login(
            provider: provider, action: "\(configuration.baseURL)/\(provider.id)/oauth2/authorize",
            samlRequest: tokens.seal((try? JSONEncoder().encode(request)) ?? Data()), relayState: "", csrf: "", username: username,
            errorMessage: error, demoAccounts: accounts.map { DemoPages.DemoAccount(username: $0.username, password: $0.password) })
        return htmlResponse(html, status: error == nil ? .ok : .unauthorized)
    }

    /// `POST {mvpd}/oauth2/authorize`: the login form; on success the browser goes to the redirect URI with a code.
    func oauth2Login(request: Request, providerID: String) async -> Response {
        guard let provider = oauth2Provider(providerID) else { return notFoundPage() }
        guard let form = await formFields(request), let sealed = form["SAMLRequest"].flatMap(tokens.open),
            let authorization = try? JSONDecoder().decode(OAuth2Request.self, from: sealed),
            authorization.exp > configuration.now().timeIntervalSince1970
        else {
            return errorPage(
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
                kind: "code", mvpd: provider.id, sub: subscriber.userID, exp: configuration.now().timeIntervalSince1970 + 60,
                redirectURI: authorization.redirectURI, challenge: authorization.challenge, nonce: TokenSigner.randomToken()))
        logger.info("demo MVPD OAuth 2.0 sign-in", metadata: ["mvpd": "\(provider.id)", "userID": "\(subscriber.userID)"])
        return redirect(to: Self.appending(authorization.redirectURI, [("code", code), ("state", authorization.state)]), status: .found)
    }

    /// `POST {mvpd}/oauth2/token`.
    func oauth2Token(request: Request, providerID: String) async -> Response {
        guard let provider = oauth2Provider(providerID) else { return oauth2Error("invalid_request", status: .notFound) }
        guard let form = await formFields(request, limit: 16 * 1024) else { return oauth2Error("invalid_request") }
        var clientID = form["client_id"], secret = form["client_secret"]
        if let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = FormURLEncoding.decode(decoded[..<colon])
            secret = FormURLEncoding.decode(decoded[decoded.index(after: colon)...])
        }
        guard clientID == Self.oauth2ClientID, !configuration.authorizationAPIKey.isEmpty,
            constantTimeEquals(secret ?? "", configuration.authorizationAPIKey)
        else { return oauth2Error("invalid_client", status: .unauthorized) }
        let now = configuration.now().timeIntervalSince1970
        switch form["grant_type"] ?? "" {
        case "authorization_code":
            guard let claims = open(form["code"] ?? ""), claims.kind == "code", claims.mvpd == provider.id, claims.exp > now,
                claims.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
                Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString() == claims.challenge
            else { return oauth2Error("invalid_grant") }
            return tokenAnswer(provider: provider, sub: claims.sub, now: now, refresh: true)
        case "refresh_token":
            guard let claims = open(form["refresh_token"] ?? ""), claims.kind == "refresh", claims.mvpd == provider.id, claims.exp > now,
                DemoSubscriber.find(userID: claims.sub, providerID: provider.id) != nil
            else { return oauth2Error("invalid_grant") }
            return tokenAnswer(provider: provider, sub: claims.sub, now: now, refresh: false)
        default:
            return oauth2Error("unsupported_grant_type")
        }
    }

    private func tokenAnswer(provider: DemoProvider, sub: String, now: Double, refresh: Bool) -> Response {
        var answer: [String: JSONValue] = [
            "access_token": .string(
                seal(OAuth2Claims(kind: "access", mvpd: provider.id, sub: sub, exp: now + 3600, nonce: TokenSigner.randomToken()))),
            "token_type": .string("Bearer"), "expires_in": .number(3600),
        ]
        if refresh {
            answer["refresh_token"] = .string(
                seal(OAuth2Claims(kind: "refresh", mvpd: provider.id, sub: sub, exp: now + 90 * 86_400, nonce: TokenSigner.randomToken())))
        }
        return jsonResponse(answer)
    }

    /// `GET {mvpd}/oauth2/userinfo` with the Bearer access token.
    func oauth2UserInfo(request: Request, providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return oauth2Error("invalid_request", status: .notFound) }
        guard let subscriber = accessTokenSubscriber(request, provider: provider) else {
            return oauth2Error("invalid_token", status: .unauthorized)
        }
        let info: [String: JSONValue] = [
            "sub": .string(subscriber.userID), "householdID": .string(subscriber.householdID), "zip": .string(subscriber.zip),
            "maxRating": .object(["VCHIP": .string(subscriber.maxRating)]),
            "channelID": .array(subscriber.channels.map(JSONValue.string)),
        ]
        return jsonResponse(info)
    }

    /// The subscriber whose access token the request carries as `Authorization: Bearer`, or nil.
    func accessTokenSubscriber(_ request: Request, provider: DemoProvider) -> DemoSubscriber? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), let claims = open(String(header.dropFirst(7))),
            claims.kind == "access", claims.mvpd == provider.id, claims.exp > configuration.now().timeIntervalSince1970
        else { return nil }
        return DemoSubscriber.find(userID: claims.sub, providerID: provider.id)
    }

    /// `GET {mvpd}/oauth2/logout`: back to a trusted service provider's `post_logout_redirect_uri`, with `state`.
    func oauth2Logout(request: Request, providerID: String) -> Response {
        guard let provider = oauth2Provider(providerID) else { return notFoundPage() }
        let query = queryItems(request)
        if let target = query["post_logout_redirect_uri"], isTrustedRedirect(target) {
            return redirect(to: Self.appending(target, query["state"].map { [("state", $0)] } ?? []), status: .found)
        }
        return errorPage(provider, status: .ok, heading: "Signed out", message: "You are signed out of \(provider.displayName).")
    }

    /// A redirect URI on a trusted service provider's origin.
    func isTrustedRedirect(_ uri: String) -> Bool {
        guard let target = URLComponents(string: uri), target.fragment == nil else { return false }
        return configuration.trustedServiceProviders.contains { sp in
            guard let acs = URLComponents(string: sp.assertionConsumerServiceURL) else { return false }
            return acs.scheme == target.scheme && acs.host == target.host && acs.port == target.port
        }
    }

    private func seal(_ claims: OAuth2Claims) -> String { tokens.seal((try? JSONEncoder().encode(claims)) ?? Data()) }

    private func open(_ token: String) -> OAuth2Claims? {
        tokens.open(token).flatMap { try? JSONDecoder().decode(OAuth2Claims.self, from: $0) }
    }

    private func oauth2Error(_ code: String, status: HTTPResponse.Status = .badRequest) -> Response {
        jsonResponse(["error": code], status: status)
    }

    static func appending(_ url: String, _ fields: [(String, String)]) -> String {
        fields.isEmpty ? url : url + (url.contains("?") ? "&" : "?") + FormURLEncoding.encode(fields)
    }
}
