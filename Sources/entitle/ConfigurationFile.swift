import Foundation
import Yams

/// A configuration file of `entitle serve`: a JSON or YAML mapping whose keys are the long option names, e.g.
/// `{"port": 8080, "data-dir": "/var/lib/entitle", "trusted-proxy": ["10.0.0.0/8"], "no-demo": true}`.
/// JSON when the name ends in `.json`, YAML otherwise (YAML also reads JSON). An unknown key is an error.
///
/// YAML is read by the YAML 1.2 core schema, not YAML 1.1's guesses: a scalar is its text (`public-url:
/// https://tve.example.com` is that URL, `port: 08080` the text "08080" that the option then parses), `true`/`false` a
/// boolean and `null`/`~`/nothing unset, and each value is then parsed as the type its option declares.
struct ConfigurationFile: Sendable {
    /// The file's path, as given.
    let path: String
    /// The values of each key, as command-line values ("true"/"false" for flags).
    let values: [String: [String]]

    /// A value in the file: a scalar or a list of scalars.
    enum Value: Decodable {
        case bool(Bool)
        case scalar(String)
        case list([Value])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? container.decode(Int.self) {
                self = .scalar(String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .scalar(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .scalar(text)
            } else if let list = try? container.decode([Value].self) {
                self = .list(list)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a value, a list of values, true or false")
            }
        }

        /// A YAML node by the YAML 1.2 core schema: an unquoted `true`/`false` (any case as the schema allows) is a
        /// boolean, an unquoted `null`/`~`/empty scalar is unset, every other scalar is its text as written.
        init(yaml node: Node) throws {
            switch node {
            case .scalar(let scalar):
                guard scalar.style == .plain else {
                    self = .scalar(scalar.string)
                    return
                }
                switch scalar.string {
                case "true", "True", "TRUE": self = .bool(true)
                case "false", "False", "FALSE": self = .bool(false)
                case "", "~", "null", "Null", "NULL": self = .null
                default: self = .scalar(scalar.string)
                }
            case .sequence(let sequence):
                self = .list(try sequence.map { try Value(yaml: $0) })
            case .mapping:
                throw ServeConfiguration.Problem("a value is a mapping, not a value or a list of values")
            }
        }

        /// The command-line form of a scalar.
        var text: String? {
            switch self {
            case .bool(let value): return value ? "true" : "false"
            case .scalar(let value): return value
            case .list, .null: return nil
            }
        }
    }

    /// Reads and checks `path` against the settings of `serve`.
    static func load(path: String, settings: [String: ServeConfiguration.Setting]) throws -> ConfigurationFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServeConfiguration.Problem("cannot read the configuration file \(path).")
        }
        let mapping: [String: Value]
        do {
            if path.lowercased().hasSuffix(".json") {
                mapping = try JSONDecoder().decode([String: Value].self, from: data)
            } else {
                mapping = try yamlMapping(String(decoding: data, as: UTF8.self))
            }
        } catch {
            throw ServeConfiguration.Problem(
                "\(path) is not a \(path.lowercased().hasSuffix(".json") ? "JSON" : "YAML") mapping of option names to values: \(describe(error))")
        }
        var values: [String: [String]] = [:]
        for (key, value) in mapping {
            guard let setting = settings[key] else {
                let known = settings.keys.sorted().joined(separator: ", ")
                let hint = settings.keys.first {
                    $0.replacingOccurrences(of: "_", with: "-") == key.lowercased().replacingOccurrences(of: "_", with: "-")
                }
                throw ServeConfiguration.Problem(
                    "unknown key \"\(key)\" in \(path)" + (hint.map { " (did you mean \"\($0)\"?)" } ?? "")
                        + ". Known keys (the long options of `entitle serve`): \(known).")
            }
            switch value {
            case .null:
                continue
            case .list(let items):
                guard setting.isRepeating else {
                    throw ServeConfiguration.Problem("\(key) in \(path): --\(key) takes one value, not a list.")
                }
                values[key] = try items.map {
                    guard let text = $0.text else { throw ServeConfiguration.Problem("\(key) in \(path): a list of plain values is expected.") }
                    return text
                }
            case .bool, .scalar:
                values[key] = [value.text ?? ""]
            }
        }
        return ConfigurationFile(path: path, values: values)
    }

    /// A YAML document's top-level mapping, each value read by the YAML 1.2 core schema (``Value/init(yaml:)``).
    static func yamlMapping(_ text: String) throws -> [String: Value] {
        guard let node = try Yams.compose(yaml: text) else { return [:] }
        guard case .mapping(let mapping) = node else {
            throw ServeConfiguration.Problem("the document is not a mapping of option names to values")
        }
        var values: [String: Value] = [:]
        for (key, value) in mapping {
            guard case .scalar(let name) = key else { throw ServeConfiguration.Problem("a key is not a plain name") }
            values[name.string] = try Value(yaml: value)
        }
        return values
    }

    /// A decoding error in a sentence.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        default:
            return "\(error)"
        }
    }
}
