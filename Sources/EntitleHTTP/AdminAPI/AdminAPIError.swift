import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import SAML

/// The admin API's errors: Enhanced-Error-shaped JSON bodies (`status`, `code`, `message`, `action: none`).
package enum AdminAPIError {
    /// An error body with a status and code.
    package static func make(_ status: Int, _ code: String, _ message: String, headers: HTTPFields = [:]) -> APIError {
        APIError(EnhancedError(action: "none", status: status, code: .init(code), message: message), headers: headers)
    }

    /// No valid session or token.
    package static let unauthenticated = make(
        401, "unauthenticated", "Sign in: POST /admin/api/session, then send the session cookie or `Authorization: Bearer <token>`.")
    /// A browser change without the session's CSRF token.
    package static let csrf = make(403, "csrf_token_invalid", "Send the session's csrfToken in the X-CSRF-Token header with every change.")
    /// A read-only operator asked for a change.
    package static let readOnly = make(403, "forbidden", "This operator is read-only.")

    /// The answer to an error of the onboarding layer; nil for anything else.
    package static func translate(_ error: any Error) -> APIError? {
        switch error {
        case let error as AdminError:
            return make(error.status, error.code, error.description, headers: error.retryAfter.map { [.retryAfter: String($0)] } ?? [:])
        case let error as ConfigurationError: return make(400, "invalid_value", error.description)
        case let error as SAMLError: return make(400, "invalid_metadata", "the SAML metadata cannot be used: \(error)")
        case is DecodingError: return make(400, "invalid_request", "The JSON body does not have the documented fields and types.")
        default: return nil
        }
    }
}

/// Answers the admin API's domain errors with their status and code before ``ErrorMiddleware`` sees them.
package struct AdminErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response
    {
        do { return try await next(request, context) } catch { throw AdminAPIError.translate(error) ?? error }
    }
}
