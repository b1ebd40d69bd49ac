import EntitleModel
import SQLKit

extension SessionStore {
    /// Marks a session that has not completed as cancelled by its device; false when it was already complete or cancelled.
    package func cancelSession(code: String) async throws -> Bool {
        try await touchedRow(
            """
            UPDATE auth_sessions SET status = 'cancelled', failure = NULL
            WHERE code = \(bind: code) AND status IN ('pending', 'authenticating', 'failed') RETURNING code
            """)
    }
}
