import EntitleModel
import Foundation
import SQLKit

/// The change log of administrative actions.
package struct ChangeLogStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension ChangeLogStore {
    /// Appends an entry to the changes log.
    package func appendChange(_ change: ChangeRecord) async throws {
        try await run(
            """
            INSERT INTO admin_changes (id, at, actor, action, target, value_before, value_after, description)
            VALUES (\(bind: change.id), \(bind: change.at), \(bind: change.actor), \(bind: change.action), \(bind: change.target),
              \(bind: change.valueBefore), \(bind: change.valueAfter), \(bind: change.description))
            """)
    }

    /// The changes log from `since` (Unix milliseconds), oldest first.
    package func changes(since: Int64) async throws -> [ChangeRecord] {
        try await all("SELECT * FROM admin_changes WHERE at >= \(bind: since) ORDER BY at, id", as: ChangeRecord.self)
    }

    /// The `limit` most recent changes from `since` (Unix milliseconds), newest first.
    package func latestChanges(since: Int64, limit: Int) async throws -> [ChangeRecord] {
        try await all(
            "SELECT * FROM admin_changes WHERE at >= \(bind: since) ORDER BY at DESC, id DESC LIMIT \(bind: limit)", as: ChangeRecord.self)
    }
}
