import EntitleCore
import Foundation
import Hummingbird
import SAML  // re-exports Crypto (SHA256)

/// The token and userinfo endpoints of the OAuth 2.0 demo provider, and the access tokens its API accepts.
extension DemoOAuth2Provider {
    /// `POST {mvpd}/oauth2/token`.
    func oauth2Token(request: Request, providerID: String) async -> Response {
        guard let provider = oauth2Provider(providerID) else { return oauth2Error("invalid_request", status: .notFound) }
        guard let form = await state.formFields(request, limit: 16 * 1024) else { return oauth2Error("invalid_request") }
        var clientID = form["client_id"], secret = form["client_secret"]
        if let header = request.headers[.authorization], header.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientID = FormURLEncoding.decode(decoded[..<colon])
            secret = FormURLEncoding.decode(decoded[decoded.index(after: colon)...])
        }
        guard clientID == Self.clientID, !state.configuration.authorizationAPIKey.isEmpty,
            constantTimeEquals(secret ?? "", state.configuration.authorizationAPIKey)
        else { return oauth2Error("invalid_client", status: .unauthorized) }
        let now = state.configuration.now().timeIntervalSince1970
        switch form["grant_type"] ?? "" {
        case "authorization_code":
            guard let claims = open(form["code"] ?? ""), claims.kind == "code", claims.mvpd == provider.id, claims.exp > now,
                claims.redirectURI == form["redirect_uri"].flatMap(trustedRedirect), let verifier = form["code_verifier"],
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

    /// The token answer: an access token, and a refresh token with `refresh`.
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
        return state.jsonResponse(answer)
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
        return state.jsonResponse(info)
    }

    /// The subscriber whose access token the request carries as `Authorization: Bearer`, or nil.
    func accessTokenSubscriber(_ request: Request, provider: DemoProvider) -> DemoSubscriber? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "), let claims = open(String(header.dropFirst(7))),
            claims.kind == "access", claims.mvpd == provider.id, claims.exp > state.configuration.now().timeIntervalSince1970
        else { return nil }
        return DemoSubscriber.find(userID: claims.sub, providerID: provider.id)
    }

}
