import Foundation
import SQLKit

/// All persistent state of the service, on SQLite or PostgreSQL through one SQL layer.
/// Every write is a single atomic statement, so any number of instances can share one PostgreSQL database.
package struct Repository: Sendable {
    let sql: any SQLDatabase
    let decoder = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)
    /// The in-memory catalog of this instance (shared by copies of the repository).
    package let catalog: CatalogCache
    /// The in-memory profiles of this instance (shared by copies of the repository); disabled unless given.
    package let profileCache: ProfileCache
    /// How long the reports' per-minute figures are kept, ms; nil keeps them (``purgeExpired(now:)`` leaves them alone).
    /// `entitle serve --report-retention-days` sets it; `entitle admin`, which opens the storage with defaults, does not.
    package var reportRetention: Int64?

    /// Creates a repository over a database; catalog reads are cached and refreshed after `catalogRefresh`; profile
    /// reads are cached when `profileCache` is an enabled cache whose feed matches the database.
    package init(
        sql: any SQLDatabase, catalogRefresh: Duration = CatalogCache.defaultRefreshInterval, profileCache: ProfileCache = .disabled
    ) {
        self.sql = sql
        catalog = CatalogCache(refreshInterval: catalogRefresh)
        self.profileCache = profileCache
    }

    /// Creates the schema or brings it up to date, recording each migration applied with `now` (milliseconds); refuses
    /// a database written by a newer Entitle (``SchemaTooNewError``) without changing it.
    package func migrate(logger: Logging.Logger, now: Int64 = 0) async throws {
        try await Migrations.apply(to: sql, logger: logger, now: now)
    }

    /// The schema version recorded in the database, read without changing anything.
    package func schemaVersion() async throws -> SchemaVersion { try await SchemaVersion.read(from: sql) }

    func first<T: Decodable>(_ query: SQLQueryString, as type: T.Type) async throws -> T? {
        try await sql.raw(query).first(decoding: T.self, with: decoder)
    }

    func all<T: Decodable>(_ query: SQLQueryString, as type: T.Type) async throws -> [T] {
        try await sql.raw(query).all(decoding: T.self, with: decoder)
    }

    func run(_ query: SQLQueryString) async throws { try await sql.raw(query).run() }

    /// Runs a statement ending in `RETURNING …` and tells whether it touched a row.
    func touchedRow(_ query: SQLQueryString) async throws -> Bool { try await sql.raw(query).first() != nil }
}

import Logging
