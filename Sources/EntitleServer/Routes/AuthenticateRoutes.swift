import EntitleCore
import Foundation
import Hummingbird
import SAML

/// The browser leg of authentication: `GET /api/v2/authenticate/{sp}/{code}` → `/adobe-services/authenticate/saml`
/// → the MVPD's login (SAML AuthnRequest, HTTP-Redirect) → `POST /sp/saml/SAMLAssertionConsumer` → the session's redirect URL.
extension EntitleService {
    func addAuthenticateRoutes(to router: Router<AppContext>) {
        router.get("/api/v2/authenticate/:sp/:code") { request, context in
            try await self.startBrowserAuthentication(request, context: context)
        }
        router.get("/adobe-services/authenticate/saml") { request, context in
            try await self.sendAuthnRequest(request, context: context)
        }
        router.post("/sp/saml/SAMLAssertionConsumer") { request, context in
            try await self.consumeAssertion(request, context: context)
        }
    }

    func startBrowserAuthentication(_ request: Request, context: AppContext) async throws -> Response {
        let sp = try context.parameters.require("sp")
        let bucket = context.remoteIP ?? "unknown"
        guard let code = RegistrationCode.normalize(try context.parameters.require("code")),
              let session = try await repository.session(code: code), session.requestorId == sp, session.notAfter > now else {
            try await countFailedCodeLookup(bucket: bucket)
            return HTMLPage.message(title: "This sign-in link is not valid",
                                    message: "The code is unknown or has expired. Start signing in again from your app or TV.", status: .badRequest)
        }
        let query = FormBody.query(of: request)
        var mvpdID = session.mvpdId
        if mvpdID == nil, let chosen = query["mvpd"], try await repository.integratedMVPD(requestor: sp, mvpd: chosen) != nil {
            try await repository.resumeSession(code: code, mvpd: chosen, domainName: nil, redirectURL: nil)
            mvpdID = chosen
        }
        guard session.status != .cancelled else {
            return HTMLPage.message(title: "This sign-in was cancelled",
                                    message: "Signing in was cancelled on the TV or app. Start signing in again there.", status: .gone)
        }
        guard let mvpdID else {
            return try await providerPicker(session: session)
        }
        guard session.status != .authenticated else {
            return try await signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        let location = "/adobe-services/authenticate/saml?" + FormBody.encode([
            ("noflash", "true"), ("mso_id", mvpdID), ("requestor_id", sp), ("domain_name", session.domainName ?? ""),
            ("redirect_url", session.redirectUrl ?? configuration.authenticatedPageURL), ("reg_code", code),
        ])
        return HTMLPage.redirect(to: location)
    }

    func providerPicker(session: AuthSessionRecord) async throws -> Response {
        HTMLPage.redirect(to: "/activate/providers?code=\(session.code)")
    }

    func sendAuthnRequest(_ request: Request, context: AppContext) async throws -> Response {
        let query = FormBody.query(of: request)
        try await bindAdobeServicesCode(query: query)
        guard let code = query["reg_code"].flatMap(RegistrationCode.normalize), let session = try await repository.session(code: code),
              session.notAfter > now, session.status != .cancelled,
              session.requestorId == query["requestor_id"], let mvpdID = session.mvpdId, mvpdID == query["mso_id"],
              let mvpd = try await repository.integratedMVPD(requestor: session.requestorId, mvpd: mvpdID) else {
            return HTMLPage.message(title: "This sign-in link is not valid",
                                    message: "The sign-in request is unknown or has expired. Start again from your app or TV.", status: .badRequest)
        }
        if mvpd.isTempPass {
            do {
                try await startTempPass(requestor: session.requestorId, clientID: session.clientId, device: session.deviceId, mvpd: mvpd, sessionCode: code)
            } catch let error as APIError {
                return HTMLPage.message(title: "Free preview unavailable", message: error.body.details ?? error.body.message, status: .forbidden)
            }
            try await repository.markAuthenticated(code: code)
            return try await signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        if try await degradedLogin(requestor: session.requestorId, clientID: session.clientId, device: session.deviceId, mvpd: mvpd,
                                   sessionCode: code) != nil {
            try await repository.markAuthenticated(code: code)
            return try await signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        guard let ssoURL = mvpd.ssoUrl else { throw APIError(.invalidIntegration) }
        let postURL = try await repository.ssoPostLocation(mvpd: mvpd.id)
        let authnRequest = AuthnRequest(id: AuthnRequest.newID(), issueInstant: clock.now(), issuer: configuration.spEntityID,
                                        destination: postURL ?? ssoURL, assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
                                        forceAuthn: false)
        guard try await repository.startAuthentication(code: code, authnRequestID: authnRequest.id) else {
            return HTMLPage.message(title: "Already signed in", message: "This sign-in has already been completed.", status: .conflict)
        }
        let signer = configuration.signAuthnRequests ? try await keys.signingIdentity(purpose: ServiceKeys.Purpose.samlSP) : nil
        if postURL != nil { return try postBindingPage(authnRequest, relayState: code, signer: signer) }
        return HTMLPage.redirect(to: try authnRequest.redirectURL(relayState: code, signer: signer))
    }

    func consumeAssertion(_ request: Request, context: AppContext) async throws -> Response {
        let form = try await FormBody.fields(of: request, context: context)
        guard let samlResponse = form["SAMLResponse"], !samlResponse.isEmpty else {
            return HTMLPage.message(title: "Sign-in failed", message: "The TV provider's answer is missing.", status: .badRequest)
        }
        let outcome = await AssertionConsumer(service: self).consume(samlResponse: samlResponse, relayState: form["RelayState"])
        switch outcome {
        case .authenticated(let redirect):
            return try await signedInResponse(redirect: redirect, code: form["RelayState"])
        case .failedWithRedirect(let redirect):
            return HTMLPage.redirect(to: redirect)
        case .rejected(let reason):
            context.logger.warning("SAML response rejected", metadata: ["reason": "\(reason.logEscaped)"])
            return HTMLPage.message(title: "Sign-in failed",
                                    message: "The answer from your TV provider could not be accepted. Start signing in again from your app or TV.",
                                    status: .badRequest)
        }
    }
}
