import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird

/// A type that adds pages and changes to the console (``ConsoleController`` and one type per area, such as
/// ``ConsoleMVPDRoutes``, each on the same router group): it renders with the console's ``ConsolePages`` and performs
/// every change posted from a form in one way (``change(_:_:back:_:)``).
package protocol ConsoleRoutes {
    var pages: ConsolePages { get }
}

extension ConsoleRoutes {
    /// Performs a change posted from a form: checks the CSRF token and the role (a refusal page), requires a
    /// description, runs `change` with it as the changes log's description, and goes back to `back` with what it did
    /// (its message) or why it was refused.
    package func change(
        _ request: Request, _ context: AdminContext, back: String, _ change: @Sendable (ConsoleForm) async throws -> String
    ) async throws -> Response {
        let identity = context.operatorIdentity
        let form: ConsoleForm
        do { form = try await ConsoleForm.read(request) } catch let failure as ConsoleFailure {
            return pages.problem(failure, identity: identity, back: back)
        }
        guard Secrets.constantTimeEqual(form.fields["csrf"] ?? "", identity.csrfToken) else {
            return pages.problem(ConsoleFailure.forged, identity: identity, back: back)
        }
        guard identity.role.mayChange else {
            return pages.problem(
                ConsoleFailure(status: .forbidden, "Your role is read-only: you can see everything and change nothing."), identity: identity,
                back: back)
        }
        do {
            guard let description = try ChangeDescription.normalized(form.fields["description"]) else {
                return ConsolePages.redirect(
                    to: back, flash: ConsoleFlash("Say why the change is made: it is recorded in the changes log.", isError: true))
            }
            let done = try await ChangeDescription.$current.withValue(description) { try await change(form) }
            return ConsolePages.redirect(to: back, flash: ConsoleFlash(done))
        } catch let error as AdminError where error.status == 403 {
            return pages.problem(ConsoleFailure(status: .forbidden, error.description), identity: identity, back: back)
        } catch let error as AdminError {
            return ConsolePages.redirect(to: back, flash: ConsoleFlash(error.description, isError: true))
        } catch let error as ConfigurationError {
            return ConsolePages.redirect(to: back, flash: ConsoleFlash(error.description, isError: true))
        } catch let failure as ConsoleFailure {
            return ConsolePages.redirect(to: back, flash: ConsoleFlash(failure.message, isError: true))
        }
    }
}

extension ConsoleFailure {
    /// A form whose CSRF token is not the session's.
    package static let forged = ConsoleFailure(
        status: .forbidden, "This form was not sent from this console session (its security token does not match). Reload the page and try again.")
}
