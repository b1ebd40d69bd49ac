import Foundation
import MediaTokenVerifier
import SQLKit
import Synchronization

/// A ``ReplayGuard`` kept in a SQL database through SQLKit (PostgreSQL, or SQLite for one host), so that every
/// instance of a programmer's video server refuses the second use of a media token, whichever instance saw the first.
///
/// One row per used token: `replay_key` (SHA-256 of the token body) and `expires_at` (epoch ms). A claim deletes an
/// expired row for its key, then inserts with `ON CONFLICT DO NOTHING … RETURNING`: exactly one of any number of
/// concurrent claims for a key gets a row back. Every `sweepInterval` claims, expired rows of all keys are deleted.
public final class SQLReplayGuard: ReplayGuard {
    /// The database (the caller owns its connections).
    public let database: any SQLDatabase
    /// The table name.
    public let table: String
    private let sweepInterval: Int
    private let claims = Mutex(0)

    /// Creates a guard on `table` of `database`; call ``prepare()`` once before use.
    public init(database: any SQLDatabase, table: String = "media_token_replays", sweepInterval: Int = 512) {
        self.database = database
        self.table = table
        self.sweepInterval = max(1, sweepInterval)
    }

    /// Creates the table and its expiry index when missing.
    public func prepare() async throws {
        try await database.raw(
            """
            CREATE TABLE IF NOT EXISTS \(ident: table) (replay_key VARCHAR(64) PRIMARY KEY NOT NULL, expires_at BIGINT NOT NULL)
            """
        ).run()
        try await database.raw("CREATE INDEX IF NOT EXISTS \(ident: table + "_expiry") ON \(ident: table) (expires_at)").run()
    }

    /// Records the first use of `key` until `expiry`; `false` when it was already used and has not expired.
    public func claimFirstUse(of key: ReplayKey, until expiry: Date, now: Date) async throws -> Bool {
        let nowMs = Self.milliseconds(now)
        try await database.raw("DELETE FROM \(ident: table) WHERE replay_key = \(bind: key.hex) AND expires_at <= \(bind: nowMs)").run()
        let inserted = try await database.raw(
            """
            INSERT INTO \(ident: table) (replay_key, expires_at) VALUES (\(bind: key.hex), \(bind: Self.milliseconds(expiry)))
            ON CONFLICT (replay_key) DO NOTHING RETURNING replay_key
            """
        ).all()
        let due = claims.withLock { count in
            count += 1
            return count % sweepInterval == 0
        }
        if due { try await sweep(now: now) }
        return !inserted.isEmpty
    }

    /// Deletes every expired row.
    public func sweep(now: Date) async throws {
        try await database.raw("DELETE FROM \(ident: table) WHERE expires_at <= \(bind: Self.milliseconds(now))").run()
    }

    /// The number of remembered uses (for operators and tests).
    public func count() async throws -> Int {
        struct Row: Decodable { var n: Int }
        return try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decoding: Row.self)?.n ?? 0
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
