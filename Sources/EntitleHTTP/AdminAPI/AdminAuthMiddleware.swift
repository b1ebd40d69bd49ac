import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird

/// Establishes the operator of every authenticated admin API route from the session cookie or a bearer token, and
/// enforces the rules of a change: a read-write role, and with a cookie the session's CSRF token in `X-CSRF-Token`
/// (a bearer token is not sent by a browser on its own, so it needs none). Signing out is allowed to every role.
package struct AdminAuthMiddleware: RouterMiddleware {
    package let accounts: OperatorAccounts

    /// The session cookie's name.
    package static let cookieName = "entitle_admin"

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        let bearer = request.headers[.authorization].flatMap { value -> String? in
            value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : nil
        }
        let cookie = request.cookies[Self.cookieName]?.value
        guard let token = bearer ?? cookie, !token.isEmpty, token.count <= 128, let identity = try await accounts.identity(token: token) else {
            throw AdminAPIError.unauthenticated
        }
        if ![.get, .head, .options].contains(request.method) {
            if bearer == nil, !Secrets.constantTimeEqual(request.headers[.csrfToken] ?? "", identity.csrfToken) { throw AdminAPIError.csrf }
            let signingOut = request.method == .delete && request.uri.path.hasSuffix("/admin/api/session")
            if !identity.role.mayChange && !signingOut { throw AdminAPIError.readOnly }
        }
        var context = context
        context.adminOperator = identity
        let description = try ChangeDescription.normalized(request.headers[.changeDescription])
        return try await OperatorReach.$current.withValue(identity.reach) {
            try await ChangeDescription.$current.withValue(description) { try await next(request, context) }
        }
    }

    /// Creates the value from each of its stored properties.
    package init(accounts: OperatorAccounts) {
        self.accounts = accounts
    }
}

extension HTTPField.Name {
    /// `X-CSRF-Token`.
    package static let csrfToken = Self("X-CSRF-Token")!
    /// `X-Change-Description`: why a change is made, recorded in the changes log with it.
    package static let changeDescription = Self("X-Change-Description")!
}
