import Foundation

extension ServeConfiguration {
    /// Names whose values are secret as a whole.
    static let secretNameParts = ["password", "secret", "token", "api-key"]

    /// A value as `--print-config` shows it: a password inside a URL (`postgres://user:****@host/db`), and the whole
    /// value of a setting whose name says it is secret, masked.
    static func masked(_ value: String, setting name: String) -> String {
        if secretNameParts.contains(where: { name.contains($0) }) && !name.hasSuffix("-file") { return "****" }
        guard let schemeEnd = value.range(of: "://") else { return value }
        let rest = value[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return value }
        return String(value[..<rest.startIndex]) + authority[..<colon] + ":****" + String(value[at...])
    }

    /// The effective configuration as YAML, usable as a configuration file, each line saying where its value came from.
    var rendered: String {
        var lines = [
            "# entitle serve: the effective configuration (precedence: flag > environment > file > default).",
            "# Secrets are masked. As a file: entitle serve --config FILE",
        ]
        let width = settings.map { $0.setting.name.count + Self.literal($0).count + 2 }.max() ?? 0
        for resolved in settings {
            let entry = "\(resolved.setting.name): \(Self.literal(resolved))"
            let source: String
            switch resolved.source {
            case .flag: source = "flag --\(resolved.setting.name)"
            case .environment(let name): source = "environment \(name)"
            case .file(let path): source = "file \(path)"
            case .default: source = "default"
            }
            lines.append(entry.padding(toLength: max(width, entry.count), withPad: " ", startingAt: 0) + "  # " + source)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML literal for a setting's values: a list for repeated options, a bare number or boolean when the value is
    /// one, a quoted string otherwise, `null` when unset.
    static func literal(_ resolved: Resolved) -> String {
        let values = resolved.values.map { masked($0, setting: resolved.setting.name) }
        if resolved.setting.isRepeating { return "[" + values.map(quoted).joined(separator: ", ") + "]" }
        guard let value = values.first else { return "null" }
        if resolved.setting.isFlag { return value }
        let defaultIsNumber = resolved.setting.defaultValue.map { Double($0) != nil } ?? false
        if defaultIsNumber, Double(value) != nil { return value }
        return quoted(value)
    }

    /// A double-quoted YAML (and JSON) string.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    }
}
