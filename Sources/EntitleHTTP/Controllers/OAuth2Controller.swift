import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Logging

/// The browser legs of OAuth 2.0 MVPDs: `GET /adobe-services/oauth2` (the MVPD's callback with `code` and `state`, as
/// Adobe's; the sign-in completes and the browser goes on to the session's redirect URL) and
/// `GET /adobe-services/oauth2/logout` (back from the MVPD's logout endpoint, `state` the logout request id). The leg
/// there starts at `/adobe-services/authenticate/saml` and `/adobe-services/logout` (``SAMLServiceProviderController``),
/// whatever the MVPD's kind.
package struct OAuth2Controller: Sendable {
    package let oauth2: OAuth2SignIn
    /// Authentication sessions.
    package let sessions: any SignInSessionStoring
    /// Catalog reads.
    package let catalog: any CatalogReading
    package let signedIn: SignedInResponder

    /// Adds the routes to the router (no throttling: browsers coming back from the MVPD).
    package func addRoutes(to router: Router<AppContext>) {
        router.get("/adobe-services/oauth2") { request, context in
            try await callback(request, context: context)
        }
        router.get("/adobe-services/oauth2/logout") { request, _ in
            try await loggedOut(request)
        }
    }

    package func callback(_ request: Request, context: AppContext) async throws -> Response {
        switch try await oauth2.complete(query: FormBody.query(of: request)) {
        case .authenticated(let redirect, let code):
            return try await signedIn.signedInResponse(redirect: redirect, code: code)
        case .declined(let redirect):
            return HTMLPage.redirect(to: redirect)
        case .failed(let error):
            context.logger.warning("OAuth 2.0 sign-in refused", metadata: ["code": "\(error.code.rawValue)"])
            let status: HTTPResponse.Status =
                error.code == .networkConnectionTimeout ? .gatewayTimeout : (error.code == .networkReceivedError ? .badGateway : .badRequest)
            return signedIn.pages.plainMessage(
                title: "Sign-in failed",
                message: "\(error.details ?? error.message) Start signing in again from your app or TV. (\(error.code.rawValue))",
                status: status)
        }
    }

    package func loggedOut(_ request: Request) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let state = query["state"], let pending = try await sessions.takeLogoutRequest(id: state) else {
            return signedIn.pages.plainMessage(
                title: "Sign-out not recognised",
                message: "This page does not answer a sign-out started here, or the answer was already used. "
                    + "A sign-out from an app takes effect in the app before your TV provider is asked.",
                status: .badRequest)
        }
        if let redirect = pending.redirectUrl { return HTMLPage.redirect(to: redirect) }
        let name = try await catalog.mvpd(id: pending.mvpdId)?.displayName ?? "your TV provider"
        return signedIn.pages.plainMessage(title: "Signed out", message: "You are signed out of \(name) in this app.")
    }

    /// Creates the value from each of its stored properties.
    package init(oauth2: OAuth2SignIn, sessions: any SignInSessionStoring, catalog: any CatalogReading, signedIn: SignedInResponder) {
        self.oauth2 = oauth2
        self.sessions = sessions
        self.catalog = catalog
        self.signedIn = signedIn
    }
}
