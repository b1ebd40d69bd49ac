import EntitleModel
import SQLKit

/// A domain type the repository reads from one table row. The row's shape (`Row`: column types as stored, such as
/// 0/1 integers for flags and JSON text for lists) stays inside Storage; callers get typed fields.
package protocol StoredRecord: Sendable {
    /// The row as the database returns it, decoded by column name.
    associatedtype Row: Decodable
    /// Maps a row to the domain type.
    init(row: Row)
}

extension SQLStore {
    /// The first row of a query, mapped to its domain type.
    package func first<T: StoredRecord>(_ query: SQLQueryString, as type: T.Type) async throws -> T? {
        try await first(query, as: T.Row.self).map(T.init(row:))
    }

    /// Every row of a query, mapped to its domain type.
    package func all<T: StoredRecord>(_ query: SQLQueryString, as type: T.Type) async throws -> [T] {
        try await all(query, as: T.Row.self).map(T.init(row:))
    }
}

/// How flags are stored: `BIGINT` 0 or 1 on both engines.
extension Bool {
    /// The stored form of the flag.
    package var storedFlag: Int64 { self ? 1 : 0 }
    /// A flag read from its stored form (anything but 0 is set).
    package init(storedFlag: Int64) { self = storedFlag != 0 }
}
