import EntitleCore
import EntitleModel
import Foundation

/// One problem of a catalog document: where (`mvpds[2].saml.entityID`) and what.
package struct CatalogIssue: Sendable, Equatable, Codable {
    package var path: String
    package var message: String

    package init(_ path: String, _ message: String) { (self.path, self.message) = (path, message) }

    /// The error that refuses a document: its source, then one line per problem; nothing was applied.
    package static func refusal(_ issues: [CatalogIssue], source: String) -> AdminError {
        let lines = issues.map { "  \($0.path.isEmpty ? "(document)" : $0.path): \($0.message)" }
        return AdminError(
            "invalid_catalog",
            "\(source): \(issues.count) problem\(issues.count == 1 ? "" : "s"), nothing applied:\n" + lines.joined(separator: "\n"))
    }
}

extension CatalogDocument {
    /// Reads a document from JSON (the YAML edge converts YAML to JSON first). A value of the wrong type, a missing field
    /// and a field this format does not have are refused with their path in the document.
    package static func read(json data: Data, source: String) throws -> CatalogDocument {
        let document: CatalogDocument
        do {
            document = try JSONDecoder().decode(CatalogDocument.self, from: data)
        } catch let error as DecodingError {
            throw CatalogIssue.refusal([issue(error)], source: source)
        } catch {
            throw CatalogIssue.refusal([CatalogIssue("", "not a JSON or YAML document")], source: source)
        }
        let unknown = unknownFields(in: data, known: document)
        if !unknown.isEmpty {
            throw CatalogIssue.refusal(
                unknown.map { CatalogIssue($0, "no such field in a catalog document (docs/operator-guide.md, \"Catalog as code\")") }, source: source)
        }
        return document
    }

    /// A decoding error as a path and a message.
    static func issue(_ error: DecodingError) -> CatalogIssue {
        switch error {
        case .keyNotFound(let key, let context):
            return CatalogIssue(path(context.codingPath + [key]), "missing (required)")
        case .typeMismatch(let type, let context):
            return CatalogIssue(path(context.codingPath), "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return CatalogIssue(path(context.codingPath), "expected \(describe(type)), found nothing")
        case .dataCorrupted(let context):
            return CatalogIssue(path(context.codingPath), context.codingPath.isEmpty ? "not a JSON or YAML document" : context.debugDescription)
        @unknown default:
            return CatalogIssue("", "not readable")
        }
    }

    /// `mvpds[2].saml.entityID` from a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "\(type)".contains("Dictionary") || "\(type)".contains("Array") ? "a list or map" : "a map of fields"
        }
    }

    /// The fields of `data` that the decoded document does not hold (compared with the document encoded again, secrets
    /// with their values); fields set to null are not reported.
    static func unknownFields(in data: Data, known document: CatalogDocument) -> [String] {
        let encoder = JSONEncoder()
        encoder.userInfo[CatalogSecret.encodingKey] = "value"
        guard let input = try? JSONSerialization.jsonObject(with: data), let encoded = try? encoder.encode(document),
            let known = try? JSONSerialization.jsonObject(with: encoded)
        else { return [] }
        var unknown: [String] = []
        func walk(_ given: Any, _ known: Any?, _ path: String) {
            if let map = given as? [String: Any] {
                let knownMap = known as? [String: Any] ?? [:]
                // A secret's fields are `file` and `value`; the attribute mapping's keys are the operator's.
                if path.hasSuffix("attributeMapping") { return }
                for (key, child) in map {
                    let childPath = path.isEmpty ? key : path + "." + key
                    if child is NSNull { continue }
                    guard let knownChild = knownMap[key] else {
                        if !(["file", "value"].contains(key) && (path.hasSuffix(".key") || path.hasSuffix(".clientSecret"))) {
                            unknown.append(childPath)
                        }
                        continue
                    }
                    walk(child, knownChild, childPath)
                }
            } else if let list = given as? [Any] {
                let knownList = known as? [Any] ?? []
                for (index, child) in list.enumerated() { walk(child, index < knownList.count ? knownList[index] : nil, path + "[\(index)]") }
            }
        }
        walk(input, known, "")
        return unknown.sorted()
    }
}
