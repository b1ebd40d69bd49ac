import EntitleModel
import Synchronization

/// Authentication sessions in memory, for unit tests of ``AuthenticationSessions`` without a database; behaves as
/// ``SessionStore`` (a code is used once; only a pending session is resumed).
package final class InMemorySessionStore: SessionStoring {
    private let sessions = Mutex<[String: AuthSessionRecord]>([:])

    /// Creates an empty store.
    package init() {}

    /// Stores a new session; false when its code is taken.
    package func insertSession(_ s: AuthSessionRecord) async throws -> Bool {
        sessions.withLock { sessions in
            guard sessions[s.code] == nil else { return false }
            sessions[s.code] = s
            return true
        }
    }

    /// A session by registration code.
    package func session(code: String) async throws -> AuthSessionRecord? { sessions.withLock { $0[code] } }

    /// Fills in the parameters of a pending session (nil leaves one as it is).
    package func resumeSession(code: String, mvpd: String?, domainName: String?, redirectURL: String?) async throws {
        sessions.withLock { sessions in
            guard var session = sessions[code], session.status == .pending else { return }
            session.mvpdId = mvpd ?? session.mvpdId
            session.domainName = domainName ?? session.domainName
            session.redirectUrl = redirectURL ?? session.redirectUrl
            sessions[code] = session
        }
    }
}
