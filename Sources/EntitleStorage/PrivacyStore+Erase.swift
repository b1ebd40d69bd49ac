import EntitleModel
import SQLKit

extension PrivacyStore {
    /// Every row the database holds about the subject, table by table (secrets withheld), and the changes-log entries
    /// whose text names it.
    package func holdings(_ subject: PrivacySubject) async throws -> [PrivacyTableRows] {
        let selection = try await select(subject)
        var tables: [PrivacyTableRows] = []
        var parts = selection.parts
        if sql.dialect.name == "sqlite", let feed = selection.feedCondition { parts.append((Self.profileChanges, feed)) }
        for (table, condition) in parts {
            let columns = table.columns.map(\.0).joined(separator: ", ")
            let rows = try await sql.raw("SELECT \(unsafeRaw: columns) FROM \(unsafeRaw: table.name) WHERE \(condition)").all()
            let values = try rows.map { row in
                var values: [String: PrivacyValue] = [:]
                for (column, kind) in table.columns {
                    switch kind {
                    case .text: values[column] = try row.decode(column: column, as: String?.self).map(PrivacyValue.text) ?? .null
                    case .integer: values[column] = try row.decode(column: column, as: Int64?.self).map(PrivacyValue.integer) ?? .null
                    case .real: values[column] = try row.decode(column: column, as: Double?.self).map(PrivacyValue.real) ?? .null
                    case .withheld: values[column] = try row.decodeNil(column: column) ? .null : .withheld
                    }
                }
                return values
            }
            tables.append(PrivacyTableRows(table: table.name, holds: table.holds, rows: values))
        }
        let changes = try await all(
            "SELECT * FROM admin_changes WHERE \(Self.mentions(subject.identifier)) ORDER BY at, id", as: ChangeRecord.self)
        tables.append(
            PrivacyTableRows(
                table: "admin_changes", holds: "changes-log entries whose text names the identifier",
                rows: changes.map { change in
                    [
                        "id": .text(change.id), "at": .integer(change.at), "actor": .text(change.actor), "action": .text(change.action),
                        "target": .text(change.target), "value_before": change.valueBefore.map(PrivacyValue.text) ?? .null,
                        "value_after": change.valueAfter.map(PrivacyValue.text) ?? .null,
                        "description": change.description.map(PrivacyValue.text) ?? .null,
                    ]
                }))
        return tables
    }

    /// The changes-log columns that may hold free text.
    private static let changeTextColumns = ["target", "value_before", "value_after", "description"]

    /// A condition true for a changes-log entry whose text contains `identifier` (REPLACE: the same on both engines,
    /// with no LIKE pattern to escape).
    static func mentions(_ identifier: String) -> SQLQueryString {
        let parts: [SQLQueryString] = changeTextColumns.map { column in
            "REPLACE(COALESCE(\(unsafeRaw: column), ''), \(bind: identifier), '') <> COALESCE(\(unsafeRaw: column), '')"
        }
        return "(" + parts.joined(separator: " OR ") + ")"
    }

    /// Removes every row about the subject; rewrites the changes-log entries that name it with `[erased]` in its place;
    /// evicts the devices from this instance's profile cache; and leaves no copy in the database file (see
    /// ``scrubFile(tables:vacuum:)``). Other instances learn of the removed profiles through the profile feed: the
    /// change-feed rows the deletion wrote are kept (their sequence numbers are what other instances poll) but name no
    /// device, which tells every instance to drop its cached profiles.
    package func erase(_ subject: PrivacySubject, vacuum: Bool = false) async throws -> PrivacyErasure {
        let selection = try await select(subject)
        var removed: [String: Int] = [:]
        for (table, condition) in selection.parts {
            let count = try await sql.raw("DELETE FROM \(unsafeRaw: table.name) WHERE \(condition) RETURNING 1 AS one").all().count
            removed[table.name, default: 0] += count
        }
        if sql.dialect.name == "sqlite", let feed = selection.feedCondition {
            try await run("UPDATE profile_changes SET requestor_id = '', client_id = '', device_id = '' WHERE \(feed)")
        }
        var assignments: [SQLQueryString] = []
        for column in Self.changeTextColumns {
            assignments.append("\(unsafeRaw: column) = REPLACE(\(unsafeRaw: column), \(bind: subject.identifier), '[erased]')")
        }
        let scrubbed = try await sql.raw(
            "UPDATE admin_changes SET \(assignments.joined(separator: ", ")) WHERE \(Self.mentions(subject.identifier)) RETURNING id"
        ).all().count
        profileCache.evict(selection.signIns.map { ProfileCache.DeviceKey(requestor: $0.requestorId, client: $0.clientId, device: $0.deviceId) })
        if subject.kind == .device, subject.requestor == nil {
            // The device may be cached with no profile under clients the selection did not find; the polled feed's
            // marker makes the other instances drop everything as well.
            profileCache.evictAll()
        }
        var touched = removed.filter { $0.value > 0 }.map(\.key)
        if scrubbed > 0 { touched.append("admin_changes") }
        if sql.dialect.name == "sqlite" { touched.append("profile_changes") }
        let storage = try await scrubFile(tables: touched.sorted(), vacuum: vacuum)
        return PrivacyErasure(removed: removed, changesScrubbed: scrubbed, signIns: selection.signIns, storage: storage)
    }

    /// Leaves no copy of removed rows in the database's files. SQLite: every connection runs with `secure_delete`
    /// (``DatabaseEngine/sqlite(path:logger:)``), so removed rows are overwritten with zeros in their pages; the old
    /// page images still in the write-ahead log are then checkpointed and the log truncated; `vacuum` also rebuilds the
    /// file (for rows removed before `secure_delete` was on, in a database written by an older Entitle). PostgreSQL:
    /// removed rows are dead tuples until VACUUM, which runs on the touched tables (`vacuum`: VACUUM FULL, which
    /// rewrites them under an exclusive lock). Returns what was done, for the operator.
    package func scrubFile(tables: [String], vacuum: Bool) async throws -> String {
        if sql.dialect.name == "sqlite" {
            if vacuum { try await run("VACUUM") }
            let row = try await sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").first()
            let busy = try row?.decode(column: "busy", as: Int64.self) ?? 0
            let prefix = vacuum ? "sqlite: secure_delete on, file rebuilt (VACUUM), " : "sqlite: secure_delete on, "
            return prefix
                + (busy == 0 ? "write-ahead log checkpointed and truncated" : "write-ahead log busy: run `entitle admin privacy erase` again")
        }
        let names = tables.filter { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
        guard !names.isEmpty else { return "postgresql: nothing to vacuum" }
        try await run("VACUUM \(unsafeRaw: vacuum ? "FULL " : "")\(unsafeRaw: names.joined(separator: ", "))")
        return "postgresql: \(vacuum ? "VACUUM FULL" : "VACUUM") \(names.joined(separator: ", "))"
    }
}
