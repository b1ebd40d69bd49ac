/// The authentication sessions ``AuthenticationSessions`` reads and writes: ``SessionStore`` on SQL,
/// ``InMemorySessionStore`` in unit tests.
package protocol SessionStoring: Sendable {
    /// Stores a new session; false when its code is taken.
    func insertSession(_ s: AuthSessionRecord) async throws -> Bool
    /// A session by registration code.
    func session(code: String) async throws -> AuthSessionRecord?
    /// Fills in the parameters of a pending session (nil leaves one as it is).
    func resumeSession(code: String, mvpd: String?, domainName: String?, redirectURL: String?) async throws
}
