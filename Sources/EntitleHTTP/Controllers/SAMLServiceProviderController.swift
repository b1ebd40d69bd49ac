import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Logging
import SAML

/// The service provider's browser legs of SAML 2.0 with the MVPDs: `GET /adobe-services/authenticate/saml` (the
/// AuthnRequest, HTTP-Redirect or an auto-posting form), `POST /sp/saml/SAMLAssertionConsumer` (the signed Response,
/// then the session's redirect URL), and Single Logout: `GET /adobe-services/logout` (a LogoutRequest, or the
/// adobe-services SDK logout by AuthN token) and `GET /sp/saml/LogoutServiceHTTPRedirectResponse`.
package struct SAMLServiceProviderController: ClockReading {
    /// Signing a device out (the same action as REST v2's logout).
    package let logout: Logout
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Per-MVPD options.
    package let mvpdOptions: any MVPDOptionsReading
    /// Legacy (v1, adobe-services) records.
    package let legacy: any LegacyStoring
    /// Profiles.
    package let profiles: any ProfileStoring
    /// Registered clients.
    package let clients: any ClientStoring
    package let configuration: ServiceConfiguration
    package let keys: ServiceKeys
    package let sessions: AuthenticationSessions
    package let tempPass: TempPassService
    package let degradation: DegradationService
    package let assertions: AssertionConsumer
    package let oauth2: OAuth2SignIn
    package let signedIn: SignedInResponder
    package let clock: any ServiceClock

    /// Adds the routes to the router (no throttling: browsers, and MVPDs posting back).
    package func addRoutes(to router: Router<AppContext>) {
        router.get("/adobe-services/authenticate/saml") { request, context in
            try await sendAuthnRequest(request, context: context)
        }
        router.post("/sp/saml/SAMLAssertionConsumer") { request, context in
            try await consumeAssertion(request, context: context)
        }
        router.get("/adobe-services/logout") { request, _ in try await sendLogoutRequest(request) }
        router.get("/sp/saml/LogoutServiceHTTPRedirectResponse") { request, context in
            try await receiveLogoutResponse(request, logger: context.logger)
        }
    }

    package func sendAuthnRequest(_ request: Request, context: AppContext) async throws -> Response {
        let query = FormBody.query(of: request)
        // Adobe answers 451 when the registration code is missing (clients of the pre-DCR cookie flow, protocol notes
        // §4.3): every sign-in here belongs to a registration code, made by reggie, REST v1 or REST v2.
        guard let rawCode = query["reg_code"], !rawCode.isEmpty else {
            return signedIn.pages.plainMessage(
                title: "A registration code is required",
                message: "Start signing in from your app or TV: it creates the registration code this page needs.",
                status: .unavailableForLegalReasons)
        }
        try await bindAdobeServicesCode(query: query)
        guard let code = RegistrationCode.normalize(rawCode), let session = try await sessionStore.session(code: code),
            session.notAfter > now, session.status != .cancelled,
            session.requestorId == query["requestor_id"], let mvpdID = session.mvpdId, mvpdID == query["mso_id"],
            let mvpd = try await catalog.integratedMVPD(requestor: session.requestorId, mvpd: mvpdID)
        else {
            return signedIn.pages.plainMessage(
                title: "This sign-in link is not valid",
                message: "The sign-in request is unknown or has expired. Start again from your app or TV.", status: .badRequest)
        }
        if mvpd.isTempPass {
            do {
                try await tempPass.startTempPass(
                    requestor: session.requestorId, clientID: session.clientId, device: session.deviceId, mvpd: mvpd, sessionCode: code)
            } catch let error as EnhancedError {
                return signedIn.pages.plainMessage(title: "Free preview unavailable", message: error.details ?? error.message, status: .forbidden)
            }
            try await sessionStore.markAuthenticated(code: code)
            return try await signedIn.signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        if try await degradation.degradedLogin(
            requestor: session.requestorId, clientID: session.clientId, device: session.deviceId, mvpd: mvpd,
            sessionCode: code) != nil
        {
            try await sessionStore.markAuthenticated(code: code)
            return try await signedIn.signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        if mvpd.kind == .oauth2 {
            guard let location = try await oauth2.authorizationURL(session: session, mvpd: mvpd) else {
                return signedIn.pages.plainMessage(title: "Already signed in", message: "This sign-in has already been completed.", status: .conflict)
            }
            return HTMLPage.redirect(to: location)
        }
        guard let ssoURL = mvpd.ssoUrl else { throw APIError(.invalidIntegration) }
        let postURL = try await mvpdOptions.ssoPostLocation(mvpd: mvpd.settingsMVPDId)
        var authnRequest = AuthnRequest(
            id: AuthnRequest.newID(), issueInstant: clock.now(), issuer: configuration.spEntityID,
            destination: postURL ?? ssoURL, assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
            forceAuthn: false)
        // A proxied MVPD signs in through its proxy, which is told which one (Adobe's proxy SAML integration).
        if mvpd.proxyMvpdId != nil {
            authnRequest.scoping = .init(providerID: mvpd.entityId ?? mvpd.id, name: mvpd.displayName, requesterID: session.requestorId)
        }
        guard try await sessionStore.startAuthentication(code: code, authnRequestID: authnRequest.id) else {
            return signedIn.pages.plainMessage(title: "Already signed in", message: "This sign-in has already been completed.", status: .conflict)
        }
        assertions.metrics.recordSignIn(.attempt, key: ReportKey(session: session, mvpd: mvpd.id), visitor: session.reportVisitor, at: now)
        let signer = configuration.signAuthnRequests ? try await keys.signingIdentity(purpose: KeyPurpose.samlSP) : nil
        if postURL != nil { return try Self.postBindingPage(authnRequest, relayState: code, signer: signer) }
        return HTMLPage.redirect(to: try authnRequest.redirectURL(relayState: code, signer: signer))
    }

    package func consumeAssertion(_ request: Request, context: AppContext) async throws -> Response {
        let form = try await FormBody.fields(of: request, context: context)
        guard let samlResponse = form["SAMLResponse"], !samlResponse.isEmpty else {
            return signedIn.pages.plainMessage(title: "Sign-in failed", message: "The TV provider's answer is missing.", status: .badRequest)
        }
        let outcome = await assertions.consume(samlResponse: samlResponse, relayState: form["RelayState"])
        switch outcome {
        case .authenticated(let redirect):
            return try await signedIn.signedInResponse(redirect: redirect, code: form["RelayState"])
        case .failedWithRedirect(let redirect):
            return HTMLPage.redirect(to: redirect)
        case .rejected(let reason):
            context.logger.warning("SAML response rejected", metadata: ["reason": "\(reason.logEscaped)"])
            return signedIn.pages.plainMessage(
                title: "Sign-in failed",
                message: "The answer from your TV provider could not be accepted. Start signing in again from your app or TV.",
                status: .badRequest)
        }
    }

    package func sendLogoutRequest(_ request: Request) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let id = query["request_id"], let record = try await sessionStore.logoutRequest(id: id), record.expiresAt > now,
            let mvpd = try await catalog.mvpd(id: record.mvpdId), let sloURL = mvpd.sloUrl
        else {
            if let answer = try await adobeServicesLogout(query: query) { return answer }
            if let redirect = try await requestorLogoutRedirect(query: query) { return HTMLPage.redirect(to: redirect) }
            return signedIn.pages.plainMessage(title: "Signed out", message: "You are signed out of this app.")
        }
        if mvpd.kind == .oauth2 {
            // RP-initiated logout at the MVPD's endpoint; it sends the browser back to /adobe-services/oauth2/logout.
            guard let location = try await oauth2.logoutURL(mvpd: mvpd, requestID: record.requestId) else {
                return signedIn.pages.plainMessage(title: "Signed out", message: "You are signed out of \(mvpd.displayName) in this app.")
            }
            return HTMLPage.redirect(to: location)
        }
        var logoutRequest = LogoutRequest(
            id: record.requestId, issueInstant: clock.now(), issuer: configuration.spEntityID,
            destination: sloURL, nameID: record.nameId, sessionIndex: record.sessionIndex)
        // A proxied MVPD's sign-in ends at its proxy, told which proxied MVPD issued the NameID (as its assertion said).
        if mvpd.proxyMvpdId != nil { logoutRequest.nameQualifier = mvpd.entityId ?? mvpd.id }
        let signer = try await keys.signingIdentity(purpose: KeyPurpose.samlSP)
        return HTMLPage.redirect(to: try logoutRequest.redirectURL(relayState: record.requestId, signer: signer))
    }

    package func receiveLogoutResponse(_ request: Request, logger: Logger) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let relayState = query["RelayState"], let pending = try await sessionStore.logoutRequest(id: relayState),
            let mvpd = try await catalog.mvpd(id: pending.mvpdId)
        else {
            // Not an answer to a sign-out started here (garbage, replayed or expired): nothing is confirmed. A sign-out
            // the user started took effect in the app before the browser left for the provider.
            return signedIn.pages.plainMessage(
                title: "Sign-out not recognised",
                message: "This page does not answer a sign-out started here, or the answer was already used or has expired. "
                    + "A sign-out from an app takes effect in the app before your TV provider is asked.",
                status: .badRequest)
        }
        let certificates = try mvpd.certificates.map { try parseCertificatePEMOrBase64DER($0) }
        // A legacy IdP the operator allowed RSA-SHA1 for (`mvpd add --allow-rsa-sha1`) may sign its answer that way too.
        let allowSHA1 = try await mvpdOptions.samlOptions(mvpd: mvpd.settingsMVPDId)?.allowRSASHA1 == true
        guard let response = try? SAML.LogoutResponse.fromRedirect(query: query, verifyWith: certificates, allowSHA1: allowSHA1),
            response.inResponseTo == pending.requestId,
            try await sessionStore.takeLogoutRequest(id: pending.requestId) != nil
        else {
            return signedIn.pages.plainMessage(
                title: "Sign-out could not be confirmed",
                message: "You are signed out of this app, but your TV provider did not confirm the sign-out.",
                status: .badRequest)
        }
        if query["SigAlg"] == DSAlgorithm.rsaSHA1 {
            logger.warning("accepted a LogoutResponse signed with RSA-SHA1 (enabled for this MVPD)", metadata: ["mvpd": "\(mvpd.id.logEscaped)"])
        }
        if let redirect = pending.redirectUrl { return HTMLPage.redirect(to: redirect) }
        return signedIn.pages.plainMessage(title: "Signed out", message: "You are signed out of \(mvpd.displayName) in this app.")
    }

    /// SDK logout (`GET /adobe-services/logout` with `authentication_token`): forgets the sign-in of the token's device.
    /// Returns nil when the query carries no token of this service (REST v2's Single Logout leg handles it).
    package func adobeServicesLogout(query: [String: String]) async throws -> Response? {
        guard let token = query["authentication_token"], let guid = AdobeTokenXML.value(of: "simpleTokenAuthenticationGuid", in: token),
            guid.count == 32, let record = try await legacy.adobeToken(guid: guid)
        else { return nil }
        let registered = try await clients.client(id: record.clientId)?.redirectURIs ?? []
        let domains = try await catalog.requestor(id: record.requestorId)?.domains ?? []
        let redirect = query["redirect_url"].flatMap { RedirectURIPolicy.allowedTarget($0, registered: registered, domains: domains) }
        // The token records stay until they expire: a client that still holds one is told `pendingLogout`.
        let mvpds = try await catalog.mvpd(id: record.mvpdId).map { [$0] } ?? []
        let outcomes = try await logout.signOut(
            Logout.Device(requestor: record.requestorId, client: record.clientId, device: record.deviceId), mvpds: mvpds,
            redirectURL: redirect, onlySignInFrom: record.profileNotBefore)
        if case .singleLogout(let requestID) = outcomes[record.mvpdId] {
            // The MVPD ends its session too, then the browser comes back to the redirect URL.
            return HTMLPage.redirect(
                to: configuration.publicBaseURL + "/adobe-services/logout?" + FormURLEncoding.encode([("request_id", requestID)]))
        }
        if let redirect { return HTMLPage.redirect(to: redirect) }
        return signedIn.pages.plainMessage(title: "Signed out", message: "You are signed out of this app.")
    }

    /// The confirmation page of a logout the app already made through the API (an MVPD without Single Logout: the SDK
    /// still opens `/adobe-services/logout?requestor_id=…&redirect_url=…` and waits for the redirect): back to
    /// `redirect_url` when it is exactly a redirect URI of one of the requestor's active software statements, or a URL
    /// on its domains; nil otherwise (no open redirect).
    package func requestorLogoutRedirect(query: [String: String]) async throws -> String? {
        guard let requestor = query["requestor_id"], let redirect = query["redirect_url"],
            let record = try await catalog.requestor(id: requestor)
        else { return nil }
        if let target = RedirectURIPolicy.domainTarget(redirect, domains: record.domains) { return target }
        let registered = try await clients.softwareStatementsForAdmin(requestor: requestor).filter { !$0.revoked }.flatMap(\.redirectURIs)
        return RedirectURIPolicy.allowedTarget(redirect, registered: registered)
    }

    /// `GET /adobe-services/authenticate/saml` for a registration code made without an MVPD (reggie, §4.4): binds the
    /// code to `mso_id`, and to `domain_name` / `redirect_url` when they are the requestor's or registered for the app.
    package func bindAdobeServicesCode(query: [String: String]) async throws {
        guard let code = query["reg_code"].flatMap(RegistrationCode.normalize), let mvpd = query["mso_id"],
            let session = try await sessionStore.session(code: code), session.status == .pending, session.mvpdId == nil,
            session.requestorId == query["requestor_id"], session.notAfter > now,
            try await catalog.integratedMVPD(requestor: session.requestorId, mvpd: mvpd) != nil
        else { return }
        let domains = try await catalog.requestor(id: session.requestorId)?.domains ?? []
        let registered = try await clients.client(id: session.clientId)?.redirectURIs ?? []
        let redirect = query["redirect_url"].flatMap { RedirectURIPolicy.allowedTarget($0, registered: registered, domains: domains) }
        let domain = query["domain_name"].flatMap { domains.contains($0) ? $0 : nil }
        try await sessionStore.resumeSession(code: code, mvpd: mvpd, domainName: domain, redirectURL: redirect)
    }

    /// The auto-posting login form for an AuthnRequest, when the MVPD has an HTTP-POST SingleSignOnService.
    package static func postBindingPage(_ authnRequest: AuthnRequest, relayState: String, signer: SigningIdentity?) throws -> Response {
        HTMLPage.html(
            autoPostForm(
                action: authnRequest.destination,
                fields: [
                    ("SAMLRequest", try authnRequest.postBindingValue(signer: signer)), ("RelayState", relayState),
                ]))
    }

    /// Creates the value from each of its stored properties.
    package init(
        logout: Logout,
        sessionStore: any SignInSessionStoring, catalog: any CatalogReading, mvpdOptions: any MVPDOptionsReading, legacy: any LegacyStoring,
        profiles: any ProfileStoring,
        clients: any ClientStoring, configuration: ServiceConfiguration, keys: ServiceKeys, sessions: AuthenticationSessions,
        tempPass: TempPassService,
        degradation: DegradationService, assertions: AssertionConsumer, oauth2: OAuth2SignIn, signedIn: SignedInResponder, clock: any ServiceClock
    ) {
        self.logout = logout
        self.sessionStore = sessionStore
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.legacy = legacy
        self.profiles = profiles
        self.clients = clients
        self.configuration = configuration
        self.keys = keys
        self.sessions = sessions
        self.tempPass = tempPass
        self.degradation = degradation
        self.assertions = assertions
        self.oauth2 = oauth2
        self.signedIn = signedIn
        self.clock = clock
    }
}
