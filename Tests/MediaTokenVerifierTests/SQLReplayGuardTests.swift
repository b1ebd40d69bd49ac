import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Logging
import MediaTokenReplaySQL
import MediaTokenVerifier
import Testing

/// The SQL replay guard on SQLite, and on PostgreSQL when `ENTITLE_TEST_DATABASE_URL` is set (scripts/test.sh).
@Suite struct SQLReplayGuardTests {
    /// Runs `body` with a fresh database of each available engine.
    static func withEngines(_ body: (DatabaseEngine) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "replay-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sqlite = try await DatabaseEngine.sqlite(path: directory + "/replays.sqlite", logger: Logger(label: "test"))
        do { try await body(sqlite) } catch { try await sqlite.close(); throw error }
        try await sqlite.close()
        if let database = try await ScratchDatabase.create() {
            let postgres = try DatabaseEngine.postgres(url: database.url, logger: Logger(label: "test"), connectionsPerEventLoop: 2)
            do { try await body(postgres) } catch { try await postgres.close(); try await database.drop(); throw error }
            try await postgres.close()
            try await database.drop()
        }
    }

    static let key = ReplayKey(hex: String(repeating: "ab", count: 32))
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func firstUseOnlyUntilExpiryThenAgain() async throws {
        try await Self.withEngines { engine in
            let replays = SQLReplayGuard(database: engine.sql)
            try await replays.prepare()
            try await replays.prepare()  // idempotent
            #expect(try await replays.claimFirstUse(of: Self.key, until: Self.now + 480, now: Self.now))
            #expect(try await !replays.claimFirstUse(of: Self.key, until: Self.now + 480, now: Self.now + 1))
            #expect(try await !replays.claimFirstUse(of: Self.key, until: Self.now + 960, now: Self.now + 479))
            #expect(try await replays.claimFirstUse(of: Self.key, until: Self.now + 960, now: Self.now + 480))
            #expect(try await replays.count() == 1)
        }
    }

    @Test func concurrentClaimsFromTwoInstancesGiveExactlyOneFirstUse() async throws {
        try await Self.withEngines { engine in
            let first = SQLReplayGuard(database: engine.sql), second = SQLReplayGuard(database: engine.sql)
            try await first.prepare()
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<24 {
                    let instance = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await instance.claimFirstUse(of: Self.key, until: Self.now + 480, now: Self.now) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }

    @Test func sweepForgetsExpiredUsesOnly() async throws {
        try await Self.withEngines { engine in
            let replays = SQLReplayGuard(database: engine.sql, sweepInterval: 3)
            try await replays.prepare()
            for index in 0..<2 {
                let key = ReplayKey(hex: String(repeating: String(index), count: 64))
                #expect(try await replays.claimFirstUse(of: key, until: Self.now + 10, now: Self.now))
            }
            // The third claim, later, sweeps the two expired rows and keeps its own.
            #expect(try await replays.claimFirstUse(of: Self.key, until: Self.now + 480, now: Self.now + 60))
            #expect(try await replays.count() == 1)
        }
    }

    @Test func theVerifierRefusesASecondUseSeenByAnotherInstance() async throws {
        try await Self.withEngines { engine in
            let shared = SQLReplayGuard(database: engine.sql)
            try await shared.prepare()
            let serverA = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), replayGuard: shared)
            let serverB = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey), replayGuard: SQLReplayGuard(database: engine.sql))
            let token = Fixtures.serialized()
            let during = Fixtures.issue.addingTimeInterval(60)
            #expect(await serverA.verify(token, requestor: "REF", resource: "news", now: during).status == .valid)
            #expect(await serverB.verify(token, requestor: "REF", resource: "news", now: during).status == .replayed)
        }
    }
}
