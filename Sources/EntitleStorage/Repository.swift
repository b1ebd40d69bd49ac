import EntitleModel
import Foundation
import Logging
import SQLKit

/// All persistent state of the service, on SQLite or PostgreSQL through one SQL layer: owns the database and the
/// in-memory caches and hands out one store per kind of data (``profiles``, ``catalog``, ``sessions``…).
/// Every write is a single atomic statement, so any number of instances can share one PostgreSQL database.
package struct Repository: SQLStore {
    /// The database and caches every store shares.
    package let base: SQLStoreBase
    /// How long the reports' per-minute figures are kept, ms; nil keeps them (``purgeExpired(now:)`` leaves them alone).
    /// `entitle serve --report-retention-days` sets it; `entitle admin`, which opens the storage with defaults, does not.
    package var reportRetention: Int64?

    /// Creates a repository over a database; catalog reads are cached and refreshed after `catalogRefresh`; profile
    /// reads are cached when `profileCache` is an enabled cache whose feed matches the database.
    package init(
        sql: any SQLDatabase, catalogRefresh: Duration = CatalogCache.defaultRefreshInterval, profileCache: ProfileCache = .disabled
    ) {
        base = SQLStoreBase(sql: sql, catalogCache: CatalogCache(refreshInterval: catalogRefresh), profileCache: profileCache)
    }

    /// Creates the schema or brings it up to date, recording each migration applied with `now` (milliseconds); refuses
    /// a database written by a newer Entitle (``SchemaTooNewError``) without changing it.
    package func migrate(logger: Logging.Logger, now: Int64 = 0) async throws {
        try await Migrations.apply(to: sql, logger: logger, now: now)
    }

    /// The schema version recorded in the database, read without changing anything.
    package func schemaVersion() async throws -> SchemaVersion { try await SchemaVersion.read(from: sql) }

    /// Deletes sessions, replay records, rate buckets, OAuth 2.0 states, operator sessions, profile changes and ended
    /// sign-ins that expired before `now` (ms), and report figures older than ``reportRetention``.
    package func purgeExpired(now: Int64) async throws {
        try await sessionStore.purgeExpired(now: now)
        try await oauth2Store.purgeExpiredOAuth2(now: now)
        // Operator sessions end after 30 minutes idle and 12 hours at most (OperatorAccounts): a day-old one is over.
        try await operatorStore.purgeOperatorSessions(idleBefore: now - 86_400_000, startedBefore: now - 86_400_000)
        try await profileStore.purgeProfileChanges()
        try await profileStore.purgeEndedSignIns(now: now)
        if let reportRetention { try await reportStore.purgeReports(before: now - reportRetention) }
    }
}
