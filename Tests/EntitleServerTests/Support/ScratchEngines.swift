import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging

/// Fresh, migrated databases for tests of the repository and the domain services without a running service.
enum ScratchEngines {
    /// Runs `body` with a migrated database of each available engine: SQLite in a temporary folder, then PostgreSQL
    /// when `ENTITLE_TEST_DATABASE_URL` names a server. Each is closed (and the PostgreSQL database dropped) whatever
    /// `body` does.
    static func withEach(_ body: (DatabaseEngine) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "scratch-engine-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sqlite = try await DatabaseEngine.sqlite(path: directory + "/entitle.sqlite", logger: Logger(label: "test"))
        do { try await migratedRun(sqlite, body) } catch { try await sqlite.close(); throw error }
        try await sqlite.close()
        if let database = try await ScratchDatabase.create() {
            let postgres = try DatabaseEngine.postgres(url: database.url, logger: Logger(label: "test"), connectionsPerEventLoop: 1)
            do { try await migratedRun(postgres, body) } catch { try await postgres.close(); try await database.drop(); throw error }
            try await postgres.close()
            try await database.drop()
        }
    }

    private static func migratedRun(_ engine: DatabaseEngine, _ body: (DatabaseEngine) async throws -> Void) async throws {
        try await Repository(sql: engine.sql).migrate(logger: Logger(label: "test"))
        try await body(engine)
    }
}
