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

/// One entry of the changes log: who changed what, when, and the values before and after (secrets never).
package struct ChangeRecord: Sendable, Codable, Equatable {
    /// Entry id (a UUID).
    package var id: String
    /// When, Unix milliseconds from the service clock.
    package var at: Int64
    /// Who: an operator's name, or `cli:<user>` for the CLI.
    package var actor: String
    /// What was done, such as `requestor.add`.
    package var action: String
    /// What it was done to, such as `MYNET`.
    package var target: String
    /// The settings before (JSON text), absent for a creation.
    package var valueBefore: String?
    /// The settings after (JSON text), absent for a removal.
    package var valueAfter: String?
    /// Why, in the operator's words (the console asks for it; the admin API takes `X-Change-Description`).
    package var description: String? = nil

    /// Creates the value from each of its stored properties.
    package init(
        id: String, at: Int64, actor: String, action: String, target: String, valueBefore: String? = nil, valueAfter: String? = nil,
        description: String? = nil
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.valueBefore = valueBefore
        self.valueAfter = valueAfter
        self.description = description
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
}
