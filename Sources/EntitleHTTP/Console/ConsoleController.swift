import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationCompat

/// The operator console (`/console`): pages rendered by the service over the same domain operations as the admin API
/// and the CLI. Sign-in with an operator account (the admin API's session cookie, so the reports page reads the report
/// API with it), a CSRF token in every change form, the role checked on the server for every change, each change
/// asking why it is made and landing in the changes log. Signing in and out is ``ConsoleSignInController``'s; the MVPD
/// pages are a type of their own, ``ConsoleMVPDRoutes``, mounted on the same router group.
package struct ConsoleController: ConsoleRoutes {
    package let service: EntitleService
    package let accounts: OperatorAccounts
    package let pages: ConsolePages

    /// Adds the static files to `open`, the requestor, operations and single sign-on pages and their changes to
    /// `authenticated` (sign-in and sign-out are ``ConsoleSignInController``'s, the MVPD pages ``ConsoleMVPDRoutes``').
    package func addRoutes(open: RouterGroup<AppContext>, authenticated: RouterGroup<AdminContext>) {
        open.get("assets/:name") { _, context in ConsoleAssets.response(name: try context.parameters.require("name")) }
        open.get("") { _, _ in ConsolePages.redirect(to: "/console/requestors") }
        addCatalogRoutes(to: authenticated)
        addOperationsRoutes(to: authenticated)
        addSingleSignOnRoutes(to: authenticated)
    }

    /// Creates the value from each of its stored properties.
    package init(service: EntitleService, accounts: OperatorAccounts, pages: ConsolePages) {
        self.service = service
        self.accounts = accounts
        self.pages = pages
    }
}

/// Establishes the operator of every console page from the session cookie (and what it may reach, for the operations);
/// without a valid session, a page (GET) sends the browser to the sign-in page, and a change (any other method) is
/// refused with 401 and the sign-in form saying nothing was changed. A page outside a scoped operator's scope answers
/// 403 with a page that says so.
package struct ConsoleAuthMiddleware: RouterMiddleware {
    package let accounts: OperatorAccounts
    /// Renders the refusal of a page outside the operator's scope.
    package var pages: ConsolePages?
    /// Renders the sign-in form that refuses a change without a session (without it, the change is sent to sign-in).
    package var signIn: ConsoleSignInController?

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard let token = request.cookies[AdminAuthMiddleware.cookieName]?.value, !token.isEmpty, token.count <= 128,
            let identity = try await accounts.identity(token: token)
        else {
            if let signIn, request.method != .get, request.method != .head { return signIn.refuseWithoutSession(context: context) }
            return ConsolePages.redirect(to: "/console/sign-in")
        }
        var context = context
        context.adminOperator = identity
        do {
            return try await OperatorReach.$current.withValue(identity.reach) { try await next(request, context) }
        } catch let error as AdminError where error.status == 403 {
            guard let pages else { throw error }
            return pages.problem(ConsoleFailure(status: .forbidden, error.description), identity: identity, back: "/console/requestors")
        }
    }

    /// Creates the value from each of its stored properties.
    package init(accounts: OperatorAccounts, pages: ConsolePages? = nil, signIn: ConsoleSignInController? = nil) {
        self.accounts = accounts
        self.pages = pages
        self.signIn = signIn
    }
}

/// The console's static files (vendored Chart.js with its license, the style sheet, the reports script), read once
/// from the module's resources.
package enum ConsoleAssets {
    package static let types = [
        "console.css": "text/css; charset=utf-8", "reports.js": "text/javascript; charset=utf-8",
        "chart.min.js": "text/javascript; charset=utf-8", "chart.js-LICENSE": "text/plain; charset=utf-8",
    ]

    package static let files: [String: ByteBuffer] = {
        var files: [String: ByteBuffer] = [:]
        for name in types.keys {
            guard
                let url = Bundle.module.url(forResource: "console/" + name, withExtension: nil)
                    ?? Bundle.module.resourceURL?.appendingPathComponent("console/" + name),
                let data = try? Data(contentsOf: url)
            else { continue }
            files[name] = ByteBuffer(data: data)
        }
        return files
    }()

    /// The file `name`, or a plain 404 for any other name.
    package static func response(name: String) -> Response {
        guard let type = types[name], let body = files[name] else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "No such file.\n")))
        }
        return Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=300", .init("X-Content-Type-Options")!: "nosniff"],
            body: .init(byteBuffer: body))
    }
}
