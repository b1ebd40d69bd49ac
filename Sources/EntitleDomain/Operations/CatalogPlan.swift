import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// What applying a catalog document does, entity by entity: created, updated (with the fields that change), unchanged,
/// or existing but not in the document (removed only with `--prune`).
package struct CatalogPlan: Codable, Sendable, Equatable {
    /// What happens to one entity.
    package enum Action: String, Codable, Sendable {
        case create, update, unchanged
        /// It exists but the document does not name it; kept (without `--prune`).
        case notInFile = "not-in-file"
        /// It exists, the document does not name it, and `--prune` removes it (a software statement is revoked).
        case remove
    }

    /// One entity of the plan.
    package struct Item: Codable, Sendable, Equatable {
        /// `requestor`, `mvpd`, `integration`, `sso-issuer` or `software-statement`.
        package var kind: String
        /// Its id (`REF/DemoCable` for an integration).
        package var id: String
        package var action: Action
        /// The fields that change (an update), as paths in the entity (`authorization.url`); a secret shows only its name.
        package var fields: [String]?

        package init(kind: String, id: String, action: Action, fields: [String]? = nil) {
            (self.kind, self.id, self.action, self.fields) = (kind, id, action, fields)
        }
    }

    package var items: [Item]
    /// Whether the plan was carried out (false for a dry run).
    package var applied: Bool
    package var dryRun: Bool
    package var prune: Bool
    /// How many entities are created, updated or removed.
    package var changes: Int

    package init(items: [Item], applied: Bool, dryRun: Bool, prune: Bool) {
        (self.items, self.applied, self.dryRun, self.prune) = (items, applied, dryRun, prune)
        changes = items.filter { [.create, .update, .remove].contains($0.action) }.count
    }

    /// The plan as lines for a terminal: one per entity that is not unchanged, then a summary.
    package var text: String {
        var lines: [String] = []
        for item in items where item.action != .unchanged {
            let fields = item.fields.map { $0.isEmpty ? "" : " (" + $0.joined(separator: ", ") + ")" } ?? ""
            let mark: String
            switch item.action {
            case .create: mark = "+ create"
            case .update: mark = "~ update"
            case .remove: mark = item.kind == "software-statement" ? "- revoke" : "- remove"
            case .notInFile: mark = "? not in the file (kept; --prune removes it)"
            case .unchanged: mark = "= unchanged"
            }
            lines.append("\(mark) \(item.kind) \(item.id)\(fields)")
        }
        let count = { (action: Action) in items.filter { $0.action == action }.count }
        var summary =
            "\(count(.create)) to create, \(count(.update)) to update, \(count(.remove)) to remove, \(count(.unchanged)) unchanged, \(count(.notInFile)) not in the file"
        if changes == 0 { summary = "No change. " + summary }
        lines.append(summary + (dryRun ? " (dry run: nothing applied)" : applied && changes > 0 ? " (applied)" : ""))
        return lines.joined(separator: "\n")
    }
}

/// Comparing two versions of one entity field by field.
enum CatalogDiff {
    /// The entity as a flat map of field path → JSON text of its value (lists are one value; a secret is its digest).
    static func fields<T: Encodable>(_ value: T) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[CatalogSecret.encodingKey] = "digest"
        guard let data = try? encoder.encode(value), let object = try? JSONSerialization.jsonObject(with: data) else { return [:] }
        var flat: [String: String] = [:]
        func walk(_ node: Any, _ path: String) {
            if let map = node as? [String: Any], !(map.keys.count == 1 && map["digest"] != nil) {
                for (key, child) in map { walk(child, path.isEmpty ? key : path + "." + key) }
            } else if let map = node as? [String: Any], let digest = map["digest"] {
                flat[path] = "secret \(digest)"
            } else {
                let text = (try? JSONSerialization.data(withJSONObject: node, options: [.sortedKeys, .fragmentsAllowed])).map {
                    String(decoding: $0, as: UTF8.self)
                }
                flat[path] = text ?? "\(node)"
            }
        }
        walk(object, "")
        return flat
    }

    /// The paths whose values differ between `current` and `desired`, sorted.
    static func changedFields<T: Encodable>(from current: T, to desired: T) -> [String] {
        let before = fields(current), after = fields(desired)
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }
}
