import EntitleModel
import SQLKit

/// Operator accounts and their console sessions.
package struct OperatorStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

/// Operator accounts and their sessions.
extension OperatorStore {
    /// An operator by name.
    package func operatorAccount(username: String) async throws -> OperatorRecord? {
        try await first("SELECT * FROM operators WHERE username = \(bind: username)", as: OperatorRecord.self)
    }

    /// Every operator, by name.
    package func allOperators() async throws -> [OperatorRecord] {
        try await all("SELECT * FROM operators ORDER BY username", as: OperatorRecord.self)
    }

    /// Creates an operator; false when the name is taken.
    package func insertOperator(_ record: OperatorRecord) async throws -> Bool {
        try await touchedRow(
            """
            INSERT INTO operators (username, password_hash, role, disabled, created_at)
            VALUES (\(bind: record.username), \(bind: record.passwordHash), \(bind: record.role), \(bind: record.disabled),
              \(bind: record.createdAt))
            ON CONFLICT (username) DO NOTHING RETURNING username
            """)
    }

    /// Changes an operator's role, password hash or disabled flag; a disabled account's sessions end. False when unknown.
    package func updateOperator(_ record: OperatorRecord) async throws -> Bool {
        let touched = try await touchedRow(
            """
            UPDATE operators SET password_hash = \(bind: record.passwordHash), role = \(bind: record.role),
              disabled = \(bind: record.disabled) WHERE username = \(bind: record.username) RETURNING username
            """)
        if touched && record.disabled != 0 { try await deleteOperatorSessions(username: record.username) }
        return touched
    }

    /// Removes an operator and its sessions; false when unknown.
    package func deleteOperator(username: String) async throws -> Bool {
        try await deleteOperatorSessions(username: username)
        return try await touchedRow("DELETE FROM operators WHERE username = \(bind: username) RETURNING username")
    }

    /// Stores a new session.
    package func insertOperatorSession(_ session: OperatorSessionRecord) async throws {
        try await run(
            """
            INSERT INTO operator_sessions (token_hash, username, csrf_token, created_at, last_seen_at)
            VALUES (\(bind: session.tokenHash), \(bind: session.username), \(bind: session.csrfToken), \(bind: session.createdAt),
              \(bind: session.lastSeenAt))
            """)
    }

    /// A session by its token hash.
    package func operatorSession(tokenHash: String) async throws -> OperatorSessionRecord? {
        try await first("SELECT * FROM operator_sessions WHERE token_hash = \(bind: tokenHash)", as: OperatorSessionRecord.self)
    }

    /// Records a session's latest request.
    package func touchOperatorSession(tokenHash: String, at: Int64) async throws {
        try await run("UPDATE operator_sessions SET last_seen_at = \(bind: at) WHERE token_hash = \(bind: tokenHash)")
    }

    /// Ends one session.
    package func deleteOperatorSession(tokenHash: String) async throws {
        try await run("DELETE FROM operator_sessions WHERE token_hash = \(bind: tokenHash)")
    }

    /// Ends every session of an operator.
    package func deleteOperatorSessions(username: String) async throws {
        try await run("DELETE FROM operator_sessions WHERE username = \(bind: username)")
    }

    /// Removes sessions idle since before `idleBefore` or begun before `startedBefore`.
    package func purgeOperatorSessions(idleBefore: Int64, startedBefore: Int64) async throws {
        try await run(
            "DELETE FROM operator_sessions WHERE last_seen_at < \(bind: idleBefore) OR created_at < \(bind: startedBefore)")
    }
}
