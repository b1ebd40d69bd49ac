import EntitleModel
import SQLKit

/// What every SQL store shares: the database (SQLite or PostgreSQL through SQLKit) and the in-memory caches of this
/// instance. Copies share the caches.
package struct SQLStoreBase: Sendable {
    /// The database.
    package let sql: any SQLDatabase
    /// Decodes rows by column name (`snake_case` columns to `camelCase` fields).
    package let decoder = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)
    /// The in-memory catalog of this instance.
    package let catalogCache: CatalogCache
    /// The in-memory profiles of this instance.
    package let profileCache: ProfileCache

    /// Creates the value from each of its stored properties.
    package init(sql: any SQLDatabase, catalogCache: CatalogCache, profileCache: ProfileCache) {
        self.sql = sql
        self.catalogCache = catalogCache
        self.profileCache = profileCache
    }
}

/// A store of one kind of data over SQL. The helpers below run its statements; every write is a single atomic
/// statement, so any number of instances can share one PostgreSQL database.
package protocol SQLStore: Sendable {
    /// The database and caches this store shares with the others.
    var base: SQLStoreBase { get }
}

extension SQLStore {
    /// The database.
    package var sql: any SQLDatabase { base.sql }
    /// Decodes rows by column name.
    package var decoder: SQLRowDecoder { base.decoder }
    /// The in-memory catalog of this instance (shared by every store and copy).
    package var catalogCache: CatalogCache { base.catalogCache }
    /// The in-memory profiles of this instance (shared by every store and copy).
    package var profileCache: ProfileCache { base.profileCache }

    /// The first row of a query, decoded.
    package func first<T: Decodable>(_ query: SQLQueryString, as type: T.Type) async throws -> T? {
        try await sql.raw(query).first(decoding: T.self, with: decoder)
    }

    /// Every row of a query, decoded.
    package func all<T: Decodable>(_ query: SQLQueryString, as type: T.Type) async throws -> [T] {
        try await sql.raw(query).all(decoding: T.self, with: decoder)
    }

    /// Runs a statement.
    package func run(_ query: SQLQueryString) async throws { try await sql.raw(query).run() }

    /// Runs a statement ending in `RETURNING …` and tells whether it touched a row.
    package func touchedRow(_ query: SQLQueryString) async throws -> Bool { try await sql.raw(query).first() != nil }
}
