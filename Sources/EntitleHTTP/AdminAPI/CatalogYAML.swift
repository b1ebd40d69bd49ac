import EntitleDomain
import Foundation
import Yams

/// The catalog document as YAML, for `entitle admin catalog` and `GET /admin/api/catalog` with `Accept: application/yaml`:
/// fields in the document's order, PEM text and other multi-line values as literal blocks, secrets as file references.
/// Reading goes through JSON, so YAML and JSON documents are checked the same way (``CatalogDocument/read(json:source:)``).
package enum CatalogYAML {
    /// The media type of a YAML answer.
    package static let mediaType = "application/yaml"

    /// The first line of an exported document.
    package static let header = "# Entitle catalog (entitle admin catalog export). Secrets are references to files, never inline.\n"

    /// YAML text of `document`.
    package static func encode(_ document: CatalogDocument) throws -> String {
        let encoder = YAMLEncoder()
        encoder.options.width = -1
        let text = try encoder.encode(document)
        guard let node = try Yams.compose(yaml: text) else { return header + text }
        return header + (try Yams.serialize(node: literalBlocks(node), width: -1))
    }

    /// The node with every multi-line text as a literal block (`|`).
    static func literalBlocks(_ node: Node) -> Node {
        switch node {
        case .scalar(var scalar):
            if scalar.string.contains("\n") { scalar.style = .literal }
            return .scalar(scalar)
        case .mapping(let mapping):
            return .mapping(Node.Mapping(mapping.map { ($0.key, literalBlocks($0.value)) }, mapping.tag, mapping.style))
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map(literalBlocks), sequence.tag, sequence.style))
        default:
            return node
        }
    }

    /// A document's text as JSON: JSON as it is, YAML converted; text that is neither is refused naming `source`.
    package static func json(from text: String, source: String) throws -> Data {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("{") { return Data(text.utf8) }
        let value: Any?
        do { value = try Yams.load(yaml: text) } catch {
            throw CatalogIssue.refusal([CatalogIssue("", "not YAML: \(error)")], source: source)
        }
        guard let value, value is [AnyHashable: Any] || value is [String: Any] else {
            throw CatalogIssue.refusal([CatalogIssue("", "a catalog document is a map with version, requestors, mvpds, …")], source: source)
        }
        return try JSONSerialization.data(withJSONObject: plain(value))
    }

    /// A loaded YAML value as JSON values (maps with text keys; dates and binary as text).
    static func plain(_ value: Any) -> Any {
        switch value {
        case let map as [String: Any]: return map.mapValues(plain)
        case let map as [AnyHashable: Any]:
            return Dictionary(map.map { ("\($0.key.base)", plain($0.value)) }, uniquingKeysWith: { a, _ in a })
        case let list as [Any]: return list.map(plain)
        case is String, is Int, is Bool, is NSNull: return value
        case let number as Double: return number
        case let date as Date: return date.ISO8601Format()
        case let data as Data: return data.base64EncodedString()
        default: return "\(value)"
        }
    }
}
