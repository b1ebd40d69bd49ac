import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Logging
import SQLKit

/// A throwaway PostgreSQL database for one run (a test, an in-process benchmark), when `ENTITLE_TEST_DATABASE_URL`
/// names a server.
package struct ScratchDatabase: Sendable {
    /// URL of the throwaway database.
    package let url: String
    let adminURL: String
    let name: String

    /// Creates a database when `ENTITLE_TEST_DATABASE_URL` is set; nil otherwise.
    package static func create() async throws -> ScratchDatabase? {
        guard let adminURL = ProcessInfo.processInfo.environment["ENTITLE_TEST_DATABASE_URL"], !adminURL.isEmpty else { return nil }
        let name = "entitle_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await withAdminEngine(adminURL) { try await $0.sql.raw("CREATE DATABASE \(unsafeRaw: String(name))").run() }
        guard let slash = adminURL.lastIndex(of: "/") else { return nil }
        let url = String(adminURL[..<slash]) + "/" + name
        return ScratchDatabase(url: url, adminURL: adminURL, name: String(name))
    }

    /// Drops the database.
    package func drop() async throws {
        try await Self.withAdminEngine(adminURL) { try await $0.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run() }
    }

    /// Runs `body` on a one-connection engine to the server's admin database, closed whatever happens (a pool dropped
    /// unclosed traps in its deinit).
    static func withAdminEngine(_ adminURL: String, _ body: (DatabaseEngine) async throws -> Void) async throws {
        let engine = try DatabaseEngine.postgres(url: adminURL, logger: Logger(label: "test"), connectionsPerEventLoop: 1)
        do {
            try await body(engine)
        } catch {
            try? await engine.close()
            throw error
        }
        try await engine.close()
    }
}
