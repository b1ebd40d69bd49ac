import EntitleCore

/// Authentication sessions and logout requests as the sign-in legs read and change them: ``SessionStoring`` plus the
/// steps of a browser sign-in and of Single Logout (`SessionStore` on SQL).
package protocol SignInSessionStoring: SessionStoring {
    /// The session whose AuthnRequest has this id.
    func session(authnRequestID: String) async throws -> AuthSessionRecord?
    /// Marks a session signed in.
    func markAuthenticated(code: String) async throws
    /// Records the AuthnRequest a session's browser leg sent; false when the session is not pending.
    func startAuthentication(code: String, authnRequestID: String) async throws -> Bool
    /// Ends a session at `now`.
    func expireSession(code: String, at now: Int64) async throws
    /// Cancels a pending session; false when there was none to cancel.
    func cancelSession(code: String) async throws -> Bool
    /// Records a Single Logout request in flight.
    func insertLogoutRequest(_ r: LogoutRequestRecord) async throws
    /// A Single Logout request in flight.
    func logoutRequest(id: String) async throws -> LogoutRequestRecord?
    /// Removes and returns a Single Logout request (once: a replayed LogoutResponse finds nothing).
    func takeLogoutRequest(id: String) async throws -> LogoutRequestRecord?
}
