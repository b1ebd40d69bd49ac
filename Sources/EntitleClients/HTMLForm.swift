import EntitleCore
import Foundation

/// A form found in an HTML page: its action, method and fields (hidden inputs and named inputs with values).
package struct HTMLForm: Sendable, Equatable {
    /// The `action` attribute (HTML entities decoded).
    package var action: String
    /// `get` or `post`.
    package var method: String
    /// Field names and values in document order.
    package var fields: [(String, String)]

    /// Equality over action, method and fields.
    package static func == (lhs: HTMLForm, rhs: HTMLForm) -> Bool {
        lhs.action == rhs.action && lhs.method == rhs.method && lhs.fields.map { $0.0 + "=" + $0.1 } == rhs.fields.map { $0.0 + "=" + $0.1 }
    }

    /// The value of a field.
    package subscript(name: String) -> String? { fields.first { $0.0 == name }?.1 }

    /// Sets or adds a field.
    package mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { $0.0 == name }) { fields[index].1 = value } else { fields.append((name, value)) }
    }

    /// Every form in `html`, in order. A small tolerant scanner for the pages of this project and typical IdPs.
    package static func forms(in html: String) -> [HTMLForm] {
        let formPattern = try! NSRegularExpression(pattern: "<form\\b([^>]*)>(.*?)</form>", options: [.caseInsensitive, .dotMatchesLineSeparators])
        let inputPattern = try! NSRegularExpression(pattern: "<(input|button)\\b([^>]*)>", options: [.caseInsensitive])
        let range = NSRange(html.startIndex..., in: html)
        return formPattern.matches(in: html, range: range).compactMap { (match: NSTextCheckingResult) -> HTMLForm? in
            guard let attributesRange = Range(match.range(at: 1), in: html), let bodyRange = Range(match.range(at: 2), in: html) else { return nil }
            let attributes = Self.attributes(String(html[attributesRange]))
            let body = String(html[bodyRange])
            var fields: [(String, String)] = []
            for input in inputPattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                guard let inputRange = Range(input.range(at: 2), in: body) else { continue }
                let inputAttributes = Self.attributes(String(body[inputRange]))
                let type = inputAttributes["type"]?.lowercased() ?? "text"
                guard let name = inputAttributes["name"], type != "submit", type != "button" else { continue }
                fields.append((name, inputAttributes["value"] ?? ""))
            }
            return HTMLForm(action: attributes["action"] ?? "", method: (attributes["method"] ?? "get").lowercased(), fields: fields)
        }
    }

    static func attributes(_ text: String) -> [String: String] {
        let pattern = try! NSRegularExpression(pattern: "([a-zA-Z_:][-a-zA-Z0-9_:.]*)\\s*=\\s*(\"([^\"]*)\"|'([^']*)'|([^\\s>]+))")
        var result: [String: String] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let nameRange = Range(match.range(at: 1), in: text) else { continue }
            var value = ""
            for group in 3...5 {
                if let valueRange = Range(match.range(at: group), in: text) { value = String(text[valueRange]); break }
            }
            result[text[nameRange].lowercased()] = XMLEscape.unescape(value)
        }
        return result
    }
}
