import EntitleStorage
import Foundation
import Logging

/// The operator's care of the database (backup, restore, schema report) and the profile-cache memory probe, for
/// `entitle admin` and `entitle bench`: the CLI reaches storage only through the host, never by naming a store.
package enum DatabaseMaintenance {
    /// The SQLite database file of a data directory.
    package static func databasePath(dataDirectory: String) -> String { SQLiteBackup.databasePath(dataDirectory: dataDirectory) }

    /// Copies the SQLite database to a new owner-only file, consistent while the service runs; returns what was copied.
    package static func backup(dataDirectory: String, to destination: String, logger: Logger) async throws -> String {
        try await SQLiteBackup.backup(dataDirectory: dataDirectory, to: destination, logger: logger).description
    }

    /// What a restore did.
    package struct Restored: Sendable {
        /// What was restored.
        package var summary: String
        /// Where the replaced database is kept, if there was one.
        package var previous: String?
        /// Whether the backup predates this binary's schema (the next start upgrades it).
        package var needsUpgrade: Bool
    }

    /// Replaces the SQLite database with a backup (the service must be stopped); the replaced one is kept.
    package static func restore(from file: String, dataDirectory: String, now: Date, logger: Logger) async throws -> Restored {
        let (summary, previous) = try await SQLiteBackup.restore(from: file, dataDirectory: dataDirectory, now: now, logger: logger)
        return Restored(summary: summary.description, previous: previous, needsUpgrade: !summary.schema.pending.isEmpty)
    }

    /// The recorded schema of a database, against this binary's migrations.
    package struct SchemaReport: Sendable {
        /// The latest migration applied.
        package var latest: Int
        /// How many migrations are recorded.
        package var appliedCount: Int
        /// How many migrations this binary knows, and the latest.
        package var knownCount: Int
        package var knownLatest: Int
        /// What an upgrade to this binary applies.
        package var pending: [Int]
        /// Why this binary cannot open the database (written by a newer one), nil when it can.
        package var tooNew: String?
    }

    /// Reads the schema version without changing anything.
    package static func schema(databaseURL: String?, dataDirectory: String, logger: Logger) async throws -> SchemaReport {
        let engine = try await DatabaseEngine.open(databaseURL: databaseURL, dataDirectory: dataDirectory, logger: logger)
        let version: SchemaVersion
        do { version = try await SchemaVersion.read(from: engine.sql) } catch {
            try? await engine.close()
            throw error
        }
        try await engine.close()
        return SchemaReport(
            latest: version.latest, appliedCount: version.applied.count, knownCount: Migrations.knownVersions.count,
            knownLatest: Migrations.knownVersions.max() ?? 0, pending: version.pending,
            tooNew: version.unknown.isEmpty ? nil : SchemaTooNewError(unknownVersions: version.unknown).description)
    }

    /// Resident memory before and after keeping `devices` profiles in the profile cache.
    package static func profileCacheMemory(devices: Int) -> (residentBefore: Int, residentAfter: Int, bytesPerDevice: Double) {
        let result = ProfileCacheMemoryProbe.run(devices: devices)
        return (result.residentBefore, result.residentAfter, result.bytesPerDevice)
    }
}
