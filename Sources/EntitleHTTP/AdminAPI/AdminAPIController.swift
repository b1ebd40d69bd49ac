import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import NIOFoundationCompat

/// The admin API (`/admin/api`, JSON): sign-in and sessions of operator accounts, then requestors, MVPDs,
/// integrations, software statements, clients, keys, degradation rules, TempPass, operators and the changes log — every
/// operation of `entitle admin` (``AdminCommandRoutes`` maps each command to its route), each change recorded with the
/// operator's name. Documented in the OpenAPI document under the `admin` tag. Requestors, MVPDs, integrations and the
/// catalog as code are ``AdminCatalogRoutes``, the service's keys ``AdminKeyRoutes``: types of their own, mounted on the
/// same router group.
package struct AdminAPIController: AdminAPIRoutes {
    package let service: EntitleService
    package let accounts: OperatorAccounts

    /// Adds the sign-in route to `open` (no session) and every other route to `authenticated` (a session or token).
    package func addRoutes(open: RouterGroup<AppContext>, authenticated: RouterGroup<AdminContext>) {
        open.post("session", use: signIn)
        authenticated.get("session") { _, context in Self.json(SessionView(context.operatorIdentity)) }
        authenticated.delete("session", use: signOut)
        addApplicationRoutes(to: authenticated)
        addReportRoutes(to: authenticated)
        addSettingsRoutes(to: authenticated)
        addSingleSignOnRoutes(to: authenticated)
        addSupportRoutes(to: authenticated)
        addOperatorRoutes(to: authenticated)
        addPrivacyRoutes(to: authenticated)
    }

    package struct Credentials: Decodable {
        package var username: String
        package var password: String

        /// Creates the value from each of its stored properties.
        package init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// The signed-in operator as the API shows it.
    package struct SessionView: Encodable {
        package var username: String
        package var role: String
        package var csrfToken: String
        package var token: String?
        /// What the operator is limited to (empty lists: unscoped).
        package var scope: OperatorScope

        package init(_ identity: OperatorIdentity, token: String? = nil) {
            (username, role, csrfToken, self.token) = (identity.username, identity.role.rawValue, identity.csrfToken, token)
            scope = identity.scope
        }
    }

    package func signIn(_ request: Request, context: AppContext) async throws -> Response {
        let credentials = try await Self.decode(Credentials.self, request, context: context)
        let (token, identity) = try await accounts.signIn(
            username: credentials.username, password: credentials.password, address: context.remoteIP)
        var response = Self.json(SessionView(identity, token: token), status: .created)
        let secure = AdminAuthMiddleware.isSecure(context, publicBaseURL: service.configuration.publicBaseURL)
        response.setCookie(AdminAuthMiddleware.sessionCookie(token, accounts: accounts, secure: secure))
        return response
    }

    package func signOut(_ request: Request, context: AdminContext) async throws -> Response {
        try await accounts.signOut(context.operatorIdentity)
        var response = Response(status: .noContent)
        response.setCookie(AdminAuthMiddleware.signedOutCookie)
        return response
    }

    /// Creates the value from each of its stored properties.
    package init(service: EntitleService, accounts: OperatorAccounts) {
        self.service = service
        self.accounts = accounts
    }
}
