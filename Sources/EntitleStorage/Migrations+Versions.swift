import EntitleModel
import SQLKit

/// The recorded schema version of a database: the migrations applied to it (`schema_migrations`), and whether this
/// binary can open it. Versions are reserved per issue, so they are not applied in numeric order: a database is
/// "newer than the binary" when it records a migration this binary does not know, whatever its number.
package struct SchemaVersion: Sendable, Equatable {
    /// The migrations recorded in the database (empty for a database Entitle never opened).
    package let applied: Set<Int>
    /// Whether the database has a `schema_migrations` table at all.
    package let recorded: Bool

    /// Recorded migrations this binary does not know: written by a newer Entitle.
    package var unknown: [Int] { applied.subtracting(Migrations.knownVersions).sorted() }
    /// Migrations this binary knows that the database lacks: an upgrade applies them.
    package var pending: [Int] { Migrations.orderedVersions.filter { !applied.contains($0) } }
    /// Whether this binary can open the database (it records no unknown migration).
    package var isOpenable: Bool { unknown.isEmpty }
    /// The highest recorded migration (0 for none), the version `entitle admin schema` shows.
    package var latest: Int { applied.max() ?? 0 }

    /// Reads the recorded migrations without changing anything (no table is created).
    package static func read(from sql: any SQLDatabase) async throws -> SchemaVersion {
        let exists: Bool
        if sql.dialect.name == "postgresql" {
            let name = try await sql.raw("SELECT to_regclass('schema_migrations')::text AS name").first(
                decodingColumn: "name", as: String?.self)
            exists = (name ?? nil) != nil
        } else {
            exists =
                try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").first() != nil
        }
        guard exists else { return SchemaVersion(applied: [], recorded: false) }
        let versions = try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int64.self)
        return SchemaVersion(applied: Set(versions.map(Int.init)), recorded: true)
    }

    /// Creates the value from each of its stored properties.
    package init(applied: Set<Int>, recorded: Bool) {
        self.applied = applied
        self.recorded = recorded
    }
}

/// The database was written by a newer Entitle: it records migrations this binary does not know. Nothing was changed.
package struct SchemaTooNewError: Error, CustomStringConvertible, Sendable {
    /// The migrations the database records that this binary does not know.
    package let unknownVersions: [Int]

    /// Creates the error.
    package init(unknownVersions: [Int]) { self.unknownVersions = unknownVersions }

    /// The operator's message.
    package var description: String {
        "the database was written by a newer Entitle: it records schema migration(s) "
            + unknownVersions.map(String.init).joined(separator: ", ")
            + " that this binary does not know. Nothing was changed. "
            + "Run the newer binary, or restore a backup taken before the upgrade (see docs/upgrading.md)."
    }
}

extension Migrations {
    /// Every migration version this binary knows, in the order it applies them.
    package static var orderedVersions: [Int] { all.map(\.version) + perEngine.map(\.version) + reports.map(\.version) }

    /// Every migration version this binary knows.
    package static var knownVersions: Set<Int> { Set(orderedVersions) }

    /// Refuses a database written by a newer binary, before anything is written to it.
    package static func checkOpenable(_ sql: any SQLDatabase) async throws -> SchemaVersion {
        let version = try await SchemaVersion.read(from: sql)
        guard version.isOpenable else { throw SchemaTooNewError(unknownVersions: version.unknown) }
        return version
    }
}
