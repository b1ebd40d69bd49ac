import EntitleModel
import SQLKit

extension KeyStore {
    /// The secret stored under `name`; when there is none yet, `make()` is stored — unless another instance stored one
    /// first, whose value is returned instead. Every instance on one database so gets the same value.
    package func sharedSecret(name: String, now: Int64, make: () throws -> String) async throws -> String {
        if let existing = try await storedSecret(name: name) { return existing }
        let candidate = try make()
        try await run(
            """
            INSERT INTO shared_secrets (name, value, created_at) VALUES (\(bind: name), \(bind: candidate), \(bind: now))
            ON CONFLICT (name) DO NOTHING
            """)
        return try await storedSecret(name: name) ?? candidate
    }

    private func storedSecret(name: String) async throws -> String? {
        struct Row: Decodable { var value: String }
        return try await first("SELECT value FROM shared_secrets WHERE name = \(bind: name)", as: Row.self)?.value
    }
}
