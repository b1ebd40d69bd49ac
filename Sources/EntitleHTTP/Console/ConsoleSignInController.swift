import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The console's sign-in and sign-out (`/console/sign-in`, `/console/sign-out`): an operator account's name and
/// password give the admin API's session cookie; the sign-in form is tied to the browser that loaded it.
package struct ConsoleSignInController: Sendable {
    package let accounts: OperatorAccounts
    package let pages: ConsolePages
    /// The service's public address (a `https` one makes the cookies `Secure`).
    package let publicBaseURL: String

    /// The cookie that ties the sign-in form to the browser that loaded it (no signing a victim into another account).
    package static let loginCookieName = "entitle_console_login"

    /// Adds the sign-in form to `open` and sign-out to `authenticated`.
    package func addRoutes(open: RouterGroup<AppContext>, authenticated: RouterGroup<AdminContext>) {
        open.get("sign-in", use: signInPage)
        open.post("sign-in", use: signIn)
        authenticated.post("sign-out", use: signOut)
    }

    package func signInPage(_ request: Request, context: AppContext) async throws -> Response {
        let login = Secrets.randomToken(bytes: 16)
        var response = pages.signIn(login: login)
        response.setCookie(loginCookie(login, context: context))
        return response
    }

    package func signIn(_ request: Request, context: AppContext) async throws -> Response {
        let form: ConsoleForm
        do { form = try await ConsoleForm.read(request) } catch let failure as ConsoleFailure {
            return restartSignIn(context: context, username: "", error: failure.message, status: failure.status)
        }
        let username = form["username"] ?? ""
        let expected = request.cookies[Self.loginCookieName]?.value ?? ""
        guard !expected.isEmpty, Secrets.constantTimeEqual(form.fields["login"] ?? "", expected) else {
            return restartSignIn(context: context, username: username, error: "The sign-in form expired. Sign in again.", status: .forbidden)
        }
        do {
            let (token, _) = try await accounts.signIn(username: username, password: form.fields["password"] ?? "", address: context.remoteIP)
            var response = ConsolePages.redirect(to: "/console/requestors")
            response.setCookie(AdminAuthMiddleware.sessionCookie(token, accounts: accounts, secure: isSecure(context)))
            response.setCookie(Cookie(name: Self.loginCookieName, value: "", maxAge: 0, path: "/console", httpOnly: true, sameSite: .strict))
            return response
        } catch let error as AdminError {
            let status = HTTPResponse.Status(code: error.status)
            var response = restartSignIn(context: context, username: username, error: error.description, status: status)
            if let wait = error.retryAfter { response.headers[.retryAfter] = String(wait) }
            return response
        }
    }

    package func signOut(_ request: Request, context: AdminContext) async throws -> Response {
        let form: ConsoleForm
        do { form = try await ConsoleForm.read(request) } catch let failure as ConsoleFailure {
            return pages.problem(failure, identity: context.operatorIdentity, back: "/console")
        }
        guard Secrets.constantTimeEqual(form.fields["csrf"] ?? "", context.operatorIdentity.csrfToken) else {
            return pages.problem(ConsoleFailure.forged, identity: context.operatorIdentity, back: "/console")
        }
        try await accounts.signOut(context.operatorIdentity)
        var response = ConsolePages.redirect(to: "/console/sign-in")
        response.setCookie(AdminAuthMiddleware.signedOutCookie)
        return response
    }

    /// The answer to a change posted without a valid session (none, expired, or signed out): 401 and a fresh sign-in
    /// form that says nothing was changed — a form is never carried out after a sign-in it did not have.
    package func refuseWithoutSession(context: AppContext) -> Response {
        restartSignIn(
            context: context, username: "",
            error: "You are not signed in, or your session has ended: nothing was changed. Sign in, then make the change again.",
            status: .unauthorized)
    }

    private func restartSignIn(context: AppContext, username: String, error: String, status: HTTPResponse.Status) -> Response {
        let login = Secrets.randomToken(bytes: 16)
        var response = pages.signIn(login: login, username: username, error: error, status: status)
        response.setCookie(loginCookie(login, context: context))
        return response
    }

    private func loginCookie(_ value: String, context: AppContext) -> Cookie {
        Cookie(name: Self.loginCookieName, value: value, maxAge: 3600, path: "/console", secure: isSecure(context), httpOnly: true, sameSite: .strict)
    }

    private func isSecure(_ context: AppContext) -> Bool {
        AdminAuthMiddleware.isSecure(context, publicBaseURL: publicBaseURL)
    }

    /// Creates the value from each of its stored properties.
    package init(accounts: OperatorAccounts, pages: ConsolePages, publicBaseURL: String) {
        self.accounts = accounts
        self.pages = pages
        self.publicBaseURL = publicBaseURL
    }
}
