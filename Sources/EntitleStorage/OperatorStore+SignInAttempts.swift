import EntitleModel
import SQLKit

/// Operator sign-in attempts by scope (`SignInLimits` in the domain names the scopes).
extension OperatorStore {
    /// Records one attempt in each of `scopes`.
    package func recordSignInAttempt(id: String, scopes: [String], at time: Int64) async throws {
        for scope in scopes {
            try await run(
                """
                INSERT INTO operator_sign_in_attempts (attempt_id, scope, attempted_at) VALUES (\(bind: id), \(bind: scope), \(bind: time))
                ON CONFLICT (attempt_id, scope) DO NOTHING
                """)
        }
    }

    /// How many attempts `scope` has recorded after `since`, and when the oldest of them was.
    package func signInAttempts(scope: String, since: Int64) async throws -> (count: Int, oldest: Int64?) {
        struct Row: Decodable {
            let attempts: Int64
            let oldest: Int64?
        }
        let row = try await first(
            """
            SELECT COUNT(*) AS attempts, MIN(attempted_at) AS oldest FROM operator_sign_in_attempts
            WHERE scope = \(bind: scope) AND attempted_at > \(bind: since)
            """, as: Row.self)
        return (Int(row?.attempts ?? 0), row?.oldest)
    }

    /// How many attempts the scopes starting with `prefix` have recorded after `since`.
    package func signInAttempts(scopePrefix prefix: String, since: Int64) async throws -> Int {
        struct Row: Decodable { let attempts: Int64 }
        let row = try await first(
            """
            SELECT COUNT(*) AS attempts FROM operator_sign_in_attempts
            WHERE substr(scope, 1, CAST(\(bind: Int64(prefix.count)) AS INTEGER)) = \(bind: prefix) AND attempted_at > \(bind: since)
            """, as: Row.self)
        return Int(row?.attempts ?? 0)
    }

    /// Forgets one attempt (it succeeded).
    package func deleteSignInAttempt(id: String) async throws {
        try await run("DELETE FROM operator_sign_in_attempts WHERE attempt_id = \(bind: id)")
    }

    /// Forgets every attempt of the scopes that start with `prefix`; returns how many were forgotten.
    package func deleteSignInAttempts(scopePrefix prefix: String) async throws -> Int {
        let rows = try await sql.raw(
            """
            DELETE FROM operator_sign_in_attempts WHERE substr(scope, 1, CAST(\(bind: Int64(prefix.count)) AS INTEGER)) = \(bind: prefix)
            RETURNING attempt_id
            """
        ).all()
        return rows.count
    }

    /// Forgets attempts older than `before`.
    package func purgeSignInAttempts(before: Int64) async throws {
        try await run("DELETE FROM operator_sign_in_attempts WHERE attempted_at <= \(bind: before)")
    }
}
