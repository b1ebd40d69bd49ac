import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The first browser step of a sign-in: `GET /api/v2/authenticate/{sp}/{code}` sends the browser to the provider picker,
/// to the MVPD's login (through ``SAMLServiceProviderController``), or — when the session is already complete — on.
package struct AuthenticateController: ClockReading {
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    /// Catalog reads.
    package let catalog: any CatalogReading
    package let configuration: ServiceConfiguration
    package let sessions: AuthenticationSessions
    package let signedIn: SignedInResponder
    package let clock: any ServiceClock

    /// Adds the route to the throttled `/api/v2/authenticate` group.
    package func addRoutes(to group: RouterGroup<AppContext>) {
        group.get(":sp/:code") { request, context in
            try await startBrowserAuthentication(request, context: context)
        }
    }

    package func startBrowserAuthentication(_ request: Request, context: AppContext) async throws -> Response {
        let sp = try context.parameters.require("sp")
        let bucket = context.remoteIP ?? "unknown"
        guard let code = RegistrationCode.normalize(try context.parameters.require("code")),
            let session = try await sessionStore.session(code: code), session.requestorId == sp, session.notAfter > now
        else {
            try await sessions.countFailedCodeLookup(bucket: bucket)
            return signedIn.pages.plainMessage(
                title: "This sign-in link is not valid",
                message: "The code is unknown or has expired. Start signing in again from your app or TV.", status: .badRequest)
        }
        let query = FormBody.query(of: request)
        var mvpdID = session.mvpdId
        if mvpdID == nil, let chosen = query["mvpd"], try await catalog.integratedMVPD(requestor: sp, mvpd: chosen) != nil {
            try await sessionStore.resumeSession(code: code, mvpd: chosen, domainName: nil, redirectURL: nil)
            mvpdID = chosen
        }
        guard session.status != .cancelled else {
            return signedIn.pages.plainMessage(
                title: "This sign-in was cancelled",
                message: "Signing in was cancelled on the TV or app. Start signing in again there.", status: .gone)
        }
        guard let mvpdID else {
            return try await providerPicker(session: session)
        }
        guard session.status != .authenticated else {
            return try await signedIn.signedInResponse(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: code)
        }
        let location =
            "/adobe-services/authenticate/saml?"
            + FormURLEncoding.encode([
                ("noflash", "true"), ("mso_id", mvpdID), ("requestor_id", sp), ("domain_name", session.domainName ?? ""),
                ("redirect_url", session.redirectUrl ?? configuration.authenticatedPageURL), ("reg_code", code),
            ])
        return HTMLPage.redirect(to: location)
    }

    package func providerPicker(session: AuthSessionRecord) async throws -> Response {
        HTMLPage.redirect(to: "/activate/providers?code=\(session.code)")
    }

    /// Creates the value from each of its stored properties.
    package init(
        sessionStore: any SignInSessionStoring, catalog: any CatalogReading, configuration: ServiceConfiguration, sessions: AuthenticationSessions,
        signedIn: SignedInResponder, clock: any ServiceClock
    ) {
        self.sessionStore = sessionStore
        self.catalog = catalog
        self.configuration = configuration
        self.sessions = sessions
        self.signedIn = signedIn
        self.clock = clock
    }
}
