import EntitleCore
import Foundation
import Hummingbird
import SAML

extension DemoSAMLIdentityProvider {
    /// The browser's valid session at `provider` and its subscriber, or nil (no cookie, bad MAC, other MVPD,
    /// expired, or the subscriber no longer exists).
    func currentSession(_ request: Request, provider: DemoProvider, now: Date) -> (SessionClaims, DemoSubscriber)? {
        guard let value = request.cookies[sessionCookieName(provider)]?.value, let payload = state.tokens.open(value),
            let claims = try? JSONDecoder().decode(SessionClaims.self, from: payload),
            claims.mvpd == provider.id, claims.expiresAt > Int64(now.timeIntervalSince1970),
            let subscriber = DemoSubscriber.find(userID: claims.userID, providerID: provider.id)
        else { return nil }
        return (claims, subscriber)
    }

    /// The HttpOnly, SameSite=Lax, HMAC-signed session cookie for `session`.
    func sessionCookie(_ session: SessionClaims, provider: DemoProvider) -> Cookie {
        let payload = (try? JSONEncoder().encode(session)) ?? Data()
        return Cookie(
            name: sessionCookieName(provider), value: state.tokens.seal(payload),
            maxAge: max(0, Int(session.expiresAt - session.issuedAt)), path: cookiePath(provider),
            secure: state.configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// A cookie that deletes the session cookie of `provider`.
    func clearedSessionCookie(provider: DemoProvider) -> Cookie {
        Cookie(
            name: sessionCookieName(provider), value: "", maxAge: 0, path: cookiePath(provider),
            secure: state.configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// `GET {mvpd}/saml/slo`: ends the IdP session and redirects with a signed LogoutResponse to the SP.
    func singleLogout(request: Request, providerID: String) async -> Response {
        guard let provider = DemoMVPD.provider(id: providerID), provider.supportsSingleLogout, provider.proxiedBy == nil else {
            return state.notFoundPage()
        }
        let now = state.configuration.now()
        let query = state.queryItems(request)
        let logoutRequest: LogoutRequest, serviceProvider: TrustedServiceProvider, singleLogoutURL: String
        do {
            (logoutRequest, serviceProvider, singleLogoutURL) = try await state.withServiceProviderCertificates {
                () throws(DemoRequestError) in
                try acceptLogoutRequest(query: query, rawQuery: request.uri.query, provider: provider, now: now)
            }
        } catch {
            return state.errorPage(provider, status: error.status, heading: error.heading, message: error.message)
        }
        // A proxy ends the session of the proxied MVPD the request names and answers in its name.
        let ending = provider.isProxy ? proxiedSessionsEnding(logoutRequest, proxy: provider, request: request, now: now) : [provider]
        let answering = provider.isProxy && ending.count == 1 ? ending[0] : provider
        let session = ending.compactMap { currentSession(request, provider: $0, now: now) }.first
        let matches = session.map { $0.0.userID == logoutRequest.nameID } ?? false
        state.logger.info(
            "demo MVPD single logout",
            metadata: [
                "mvpd": "\(answering.id)", "sp": "\(serviceProvider.entityID.logEscaped)",
                "hadSession": "\(session != nil)", "nameIDMatched": "\(matches)",
            ])
        let response = LogoutResponse(
            id: AuthnRequest.newID(), issueInstant: now,
            issuer: answering.entityID(baseURL: state.configuration.baseURL),
            destination: singleLogoutURL, inResponseTo: logoutRequest.id, success: true)
        let location: String
        do {
            let relayState = query["RelayState"].flatMap { $0.isEmpty ? nil : $0 }
            location = try response.redirectURL(relayState: relayState, signer: state.configuration.identity)
        } catch {
            state.logger.error(
                "demo MVPD could not build LogoutResponse",
                metadata: ["mvpd": "\(provider.id)", "error": "\(String(describing: error).logEscaped)"])
            return state.errorPage(
                provider, status: .internalServerError, heading: "Sign-out failed",
                message: "\(provider.displayName) could not complete the sign-out.")
        }
        // The browser session ends whatever the NameID says: signing out is never harmful.
        return state.redirect(to: location, status: .found, cookies: ending.map { clearedSessionCookie(provider: $0) })
    }

    /// `GET {mvpd}/account`: the subscriber's package when signed in, else a link to sign in.
    func account(request: Request, providerID: String) -> Response {
        guard let provider = DemoMVPD.provider(id: providerID), provider.proxiedBy == nil, !provider.isProxy else { return state.notFoundPage() }
        let subscriber = currentSession(request, provider: provider, now: state.configuration.now())?.1
        return state.htmlResponse(
            state.pages.account(
                provider: provider, subscriber: subscriber, loginLink: "login",
                logoutAction: "logout"))
    }

    /// `POST {mvpd}/logout`: ends the browser session and goes back to the account page.
    func accountLogout(request: Request, providerID: String) -> Response {
        guard let provider = DemoMVPD.provider(id: providerID) else { return state.notFoundPage() }
        return state.redirect(
            to: "\(state.configuration.baseURL)/\(provider.id)/account",
            cookies: [clearedSessionCookie(provider: provider)])
    }
}
