import EntitleCore
import Foundation
import Hummingbird
import SAML

extension DemoMVPD {
    /// The browser's valid session at `provider` and its subscriber, or nil (no cookie, bad MAC, other MVPD,
    /// expired, or the subscriber no longer exists).
    func currentSession(_ request: Request, provider: DemoProvider, now: Date) -> (SessionClaims, DemoSubscriber)? {
        guard let value = request.cookies[sessionCookieName(provider)]?.value, let payload = tokens.open(value),
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
            name: sessionCookieName(provider), value: tokens.seal(payload),
            maxAge: max(0, Int(session.expiresAt - session.issuedAt)), path: cookiePath(provider),
            secure: configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// A cookie that deletes the session cookie of `provider`.
    func clearedSessionCookie(provider: DemoProvider) -> Cookie {
        Cookie(
            name: sessionCookieName(provider), value: "", maxAge: 0, path: cookiePath(provider),
            secure: configuration.secureCookies, httpOnly: true, sameSite: .lax)
    }

    /// `GET {mvpd}/saml/slo`: ends the IdP session and redirects with a signed LogoutResponse to the SP.
    func singleLogout(request: Request, providerID: String) async -> Response {
        guard let provider = Self.provider(id: providerID), provider.supportsSingleLogout else { return notFoundPage() }
        let now = configuration.now()
        let query = queryItems(request)
        let logoutRequest: LogoutRequest, serviceProvider: TrustedServiceProvider, singleLogoutURL: String
        do {
            (logoutRequest, serviceProvider, singleLogoutURL) = try await withServiceProviderCertificates {
                () throws(DemoRequestError) in
                try acceptLogoutRequest(query: query, rawQuery: request.uri.query, provider: provider, now: now)
            }
        } catch {
            return errorPage(provider, status: error.status, heading: error.heading, message: error.message)
        }
        let session = currentSession(request, provider: provider, now: now)
        let matches = session.map { $0.0.userID == logoutRequest.nameID } ?? false
        logger.info(
            "demo MVPD single logout",
            metadata: [
                "mvpd": "\(provider.id)", "sp": "\(serviceProvider.entityID.logEscaped)",
                "hadSession": "\(session != nil)", "nameIDMatched": "\(matches)",
            ])
        let response = LogoutResponse(
            id: AuthnRequest.newID(), issueInstant: now,
            issuer: provider.entityID(baseURL: configuration.baseURL),
            destination: singleLogoutURL, inResponseTo: logoutRequest.id, success: true)
        let location: String
        do {
            let relayState = query["RelayState"].flatMap { $0.isEmpty ? nil : $0 }
            location = try response.redirectURL(relayState: relayState, signer: configuration.identity)
        } catch {
            logger.error(
                "demo MVPD could not build LogoutResponse",
                metadata: ["mvpd": "\(provider.id)", "error": "\(String(describing: error).logEscaped)"])
            return errorPage(
                provider, status: .internalServerError, heading: "Sign-out failed",
                message: "\(provider.displayName) could not complete the sign-out.")
        }
        // The browser session ends whatever the NameID says: signing out is never harmful.
        return redirect(to: location, status: .found, cookies: [clearedSessionCookie(provider: provider)])
    }

    /// `GET {mvpd}/account`: the subscriber's package when signed in, else a link to sign in.
    func account(request: Request, providerID: String) -> Response {
        guard let provider = Self.provider(id: providerID) else { return notFoundPage() }
        let subscriber = currentSession(request, provider: provider, now: configuration.now())?.1
        return htmlResponse(
            pages.account(
                provider: provider, subscriber: subscriber, loginLink: "login",
                logoutAction: "logout"))
    }

    /// `POST {mvpd}/logout`: ends the browser session and goes back to the account page.
    func accountLogout(request: Request, providerID: String) -> Response {
        guard let provider = Self.provider(id: providerID) else { return notFoundPage() }
        return redirect(
            to: "\(configuration.baseURL)/\(provider.id)/account",
            cookies: [clearedSessionCookie(provider: provider)])
    }
}
