import EntitleCore
import Foundation
import Hummingbird
import SAML

extension DemoSAMLIdentityProvider {
    /// `GET {mvpd}/saml/sso`: validates the AuthnRequest, then answers with the assertion straight away when the
    /// browser has a session here (and ForceAuthn is false), else with the login page.
    func singleSignOn(request: Request, providerID: String) async -> Response {
        guard let endpoint = DemoMVPD.provider(id: providerID), endpoint.proxiedBy == nil else { return state.notFoundPage() }
        let now = state.configuration.now()
        let query = state.queryItems(request)
        let provider: DemoProvider
        let accepted: AcceptedAuthnRequest
        do {
            provider = try signInProvider(at: endpoint, samlRequest: query["SAMLRequest"], viaPOST: false)
        } catch {
            return state.errorPage(endpoint, status: error.status, heading: error.heading, message: error.message)
        }
        do {
            accepted = try await state.withServiceProviderCertificates { () throws(DemoRequestError) in
                try acceptAuthnRequest(
                    query: query, rawQuery: request.uri.query,
                    provider: provider, checkSignature: true,
                    checkFreshness: true, now: now)
            }
        } catch {
            return state.errorPage(provider, status: error.status, heading: error.heading, message: error.message)
        }
        return answer(accepted, request: request, provider: provider, now: now)
    }

    /// The answer to an accepted AuthnRequest (either binding): the assertion straight away when the browser has a
    /// session here (and ForceAuthn is false), else the login page.
    func answer(_ accepted: AcceptedAuthnRequest, request: Request, provider: DemoProvider, now: Date) -> Response {
        if !accepted.request.forceAuthn, let (session, subscriber) = currentSession(request, provider: provider, now: now) {
            state.logger.info(
                "demo MVPD single sign-on from existing session",
                metadata: ["mvpd": "\(provider.id)", "sp": "\(accepted.serviceProvider.entityID.logEscaped)"])
            return assertionPage(
                accepted, provider: provider, subscriber: subscriber, session: session, now: now,
                cookies: [])
        }
        return loginPage(
            request: request, provider: provider, action: "login", samlRequest: accepted.loginFormValue,
            relayState: accepted.relayState ?? "", username: "", errorMessage: nil, now: now)
    }

    /// `GET {mvpd}/login`: the login page without a SAML request (signs in to the account page).
    func accountLoginPage(request: Request, providerID: String) -> Response {
        guard let provider = DemoMVPD.provider(id: providerID), provider.proxiedBy == nil, !provider.isProxy else { return state.notFoundPage() }
        return loginPage(
            request: request, provider: provider, action: "saml/login", samlRequest: "", relayState: "",
            username: "", errorMessage: nil, now: state.configuration.now())
    }

    /// `POST {mvpd}/saml/login`: checks the CSRF token and the credentials; on success sets the session cookie and
    /// posts the signed SAML Response to the SP (or, without a SAML request, redirects to the account page).
    func login(request: Request, providerID: String) async -> Response {
        guard let endpoint = DemoMVPD.provider(id: providerID), endpoint.proxiedBy == nil else { return state.notFoundPage() }
        guard let form = await state.formFields(request) else {
            return state.errorPage(
                endpoint, status: .contentTooLarge, heading: "Request too large",
                message: "The sign-in form is larger than allowed.")
        }
        let now = state.configuration.now()
        let samlRequest = form["SAMLRequest"] ?? ""
        let relayState = form["RelayState"] ?? ""
        let provider: DemoProvider
        do {
            let viaPOST = samlRequest.hasPrefix(AcceptedAuthnRequest.postMarker)
            provider = try signInProvider(
                at: endpoint, samlRequest: viaPOST ? String(samlRequest.dropFirst(AcceptedAuthnRequest.postMarker.count)) : samlRequest,
                viaPOST: viaPOST)
        } catch {
            return state.errorPage(endpoint, status: error.status, heading: error.heading, message: error.message)
        }
        guard let csrfCookie = request.cookies[Self.csrfCookieName]?.value,
            verifyLoginToken(
                form["csrf"] ?? "", provider: provider, csrfCookie: csrfCookie,
                samlRequest: samlRequest, relayState: relayState, now: now)
        else {
            state.logger.notice("demo MVPD refused login form with bad CSRF token", metadata: ["mvpd": "\(provider.id)"])
            return state.errorPage(
                provider, status: .forbidden, heading: "Sign-in page expired",
                message: "This sign-in page has expired or was not opened in this browser. Go back to the app or website and start again.")
        }
        var accepted: AcceptedAuthnRequest?
        if !samlRequest.isEmpty {
            let viaPOST = samlRequest.hasPrefix(AcceptedAuthnRequest.postMarker)
            var query = ["SAMLRequest": viaPOST ? String(samlRequest.dropFirst(AcceptedAuthnRequest.postMarker.count)) : samlRequest]
            if !relayState.isEmpty { query["RelayState"] = relayState }
            do {
                // The signature and age were checked when the login page was shown; the CSRF MAC binds this
                // SAMLRequest and RelayState to that page.
                accepted = try acceptAuthnRequest(
                    query: query, viaPOST: viaPOST, provider: provider, checkSignature: false,
                    checkFreshness: false, now: now)
            } catch {
                return state.errorPage(provider, status: error.status, heading: error.heading, message: error.message)
            }
        }
        let username = form["username"] ?? ""
        guard
            let subscriber = DemoSubscriber.authenticate(
                username: username, password: form["password"] ?? "",
                providerID: provider.id)
        else {
            state.logger.info("demo MVPD login failed", metadata: ["mvpd": "\(provider.id)"])
            return loginPage(
                request: request, provider: provider, action: "login", samlRequest: samlRequest,
                relayState: relayState, username: username,
                errorMessage: "The username or password is incorrect for \(provider.displayName).",
                now: now, status: .unauthorized)
        }
        let session = SessionClaims(
            mvpd: provider.id, userID: subscriber.userID, sessionIndex: AuthnRequest.newID(),
            issuedAt: Int64(now.timeIntervalSince1970),
            expiresAt: Int64(now.addingTimeInterval(state.configuration.sessionLifetime).timeIntervalSince1970))
        let cookie = sessionCookie(session, provider: provider)
        state.logger.info("demo MVPD login succeeded", metadata: ["mvpd": "\(provider.id)", "userID": "\(subscriber.userID.logEscaped)"])
        guard let accepted else {
            return state.redirect(to: "\(state.configuration.baseURL)/\(provider.id)/account", cookies: [cookie])
        }
        return assertionPage(
            accepted, provider: provider, subscriber: subscriber, session: session, now: now,
            cookies: [cookie])
    }

    /// The auto-post page carrying the signed SAML Response to the SP's ACS.
    func assertionPage(
        _ accepted: AcceptedAuthnRequest, provider: DemoProvider, subscriber: DemoSubscriber,
        session: SessionClaims, now: Date, cookies: [Cookie]
    ) -> Response {
        let serviceProvider = accepted.serviceProvider
        var builder = SAMLResponseBuilder(
            issuer: provider.entityID(baseURL: state.configuration.baseURL),
            signer: state.configuration.identity)
        builder.nameIDFormat = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"  // stable opaque user id
        // A proxy answers in the proxied MVPD's name: Issuer and NameQualifier (Adobe's proxy SAML integration).
        if provider.proxiedBy != nil { builder.nameQualifier = provider.entityID(baseURL: state.configuration.baseURL) }
        let samlResponse: String
        do {
            samlResponse = try builder.success(
                inResponseTo: accepted.request.id, destination: serviceProvider.assertionConsumerServiceURL,
                audience: serviceProvider.entityID, nameID: subscriber.userID, sessionIndex: session.sessionIndex,
                attributes: state.assertedAttributes(of: subscriber, provider: provider), now: now, sessionNotOnOrAfter: session.expiryDate)
        } catch {
            state.logger.error(
                "demo MVPD could not build SAML response",
                metadata: ["mvpd": "\(provider.id)", "error": "\(String(describing: error).logEscaped)"])
            return state.errorPage(
                provider, status: .internalServerError, heading: "Sign-in failed",
                message: "\(provider.displayName) could not complete the sign-in. Try again later.")
        }
        var fields = [("SAMLResponse", samlResponse)]
        if let relayState = accepted.relayState { fields.append(("RelayState", relayState)) }
        return state.htmlResponse(
            autoPostForm(action: serviceProvider.assertionConsumerServiceURL, fields: fields),
            cookies: cookies)
    }

    /// The login page with a fresh CSRF token (and the CSRF cookie when the browser has none).
    func loginPage(
        request: Request, provider: DemoProvider, action: String, samlRequest: String, relayState: String,
        username: String, errorMessage: String?, now: Date, status: HTTPResponse.Status = .ok
    ) -> Response {
        var cookies: [Cookie] = []
        let csrfCookie: String
        if let existing = request.cookies[Self.csrfCookieName]?.value, existing.count >= 32,
            Data(base64URLEncoded: existing) != nil
        {
            csrfCookie = existing
        } else {
            csrfCookie = TokenSigner.randomToken()
            cookies.append(
                Cookie(
                    name: Self.csrfCookieName, value: csrfCookie, path: state.basePath.isEmpty ? "/" : state.basePath,
                    secure: state.configuration.secureCookies, httpOnly: true, sameSite: .lax))
        }
        let token = loginToken(
            provider: provider, csrfCookie: csrfCookie, samlRequest: samlRequest,
            relayState: relayState, now: now)
        let accounts =
            state.configuration.showDemoAccounts
            ? DemoSubscriber.all.filter { $0.providerID == provider.id }
                .map { DemoPages.DemoAccount(username: $0.username, password: $0.password) }
            : []
        let html = state.pages.login(
            provider: provider, action: action, samlRequest: samlRequest, relayState: relayState,
            csrf: token, username: username, errorMessage: errorMessage, demoAccounts: accounts)
        return state.htmlResponse(html, status: status, cookies: cookies)
    }

    /// `"<expiry>.<MAC(login, mvpd, csrf cookie, expiry, SAMLRequest, RelayState)>"`.
    func loginToken(
        provider: DemoProvider, csrfCookie: String, samlRequest: String, relayState: String,
        now: Date
    ) -> String {
        let expiry = String(Int64(now.addingTimeInterval(state.configuration.loginFormLifetime).timeIntervalSince1970))
        let mac = state.tokens.mac(fields: ["login", provider.id, csrfCookie, expiry, samlRequest, relayState])
        return "\(expiry).\(mac)"
    }

    /// Whether a login token is unexpired and was issued for this browser, MVPD, SAMLRequest and RelayState.
    func verifyLoginToken(
        _ token: String, provider: DemoProvider, csrfCookie: String, samlRequest: String,
        relayState: String, now: Date
    ) -> Bool {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let expiry = Int64(parts[0]), expiry >= Int64(now.timeIntervalSince1970) else {
            return false
        }
        return state.tokens.verify(
            mac: String(parts[1]),
            fields: ["login", provider.id, csrfCookie, String(expiry), samlRequest, relayState])
    }
}
