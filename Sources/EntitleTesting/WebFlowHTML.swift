/// A small HTML form reader of the kind a generic web-flow client carries (as open-source TV Everywhere clients do):
/// it knows forms, inputs and their attributes, and nothing of Entitle, SAML or any MVPD. Tags and attribute names
/// are case-insensitive; attribute values may be double-quoted, single-quoted or bare; character references are
/// decoded.
package enum WebFlowHTML {
    /// One `<input>` of a form.
    package struct Input: Sendable, Equatable {
        /// `type`, lower-cased (`text` when absent).
        package var type: String
        /// `name` (inputs without one are not submitted).
        package var name: String
        /// `value` (empty when absent).
        package var value: String
    }

    /// One `<form>`: its method (lower-cased, `get` when absent), action (as written, decoded) and inputs in order.
    package struct Form: Sendable, Equatable {
        /// `get` or `post`.
        package var method: String
        /// The `action` attribute; empty means the page's own URL.
        package var action: String
        /// The inputs, in document order.
        package var inputs: [Input]

        /// The name/value pairs a browser submits: every named input but buttons (and unchecked boxes).
        package var submission: [(String, String)] {
            inputs.filter { !["submit", "button", "reset", "image", "checkbox", "radio"].contains($0.type) && !$0.name.isEmpty }
                .map { ($0.name, $0.value) }
        }
    }

    /// Every form of `html`, in document order.
    package static func forms(in html: String) -> [Form] {
        var forms: [Form] = []
        var current: Form?
        for tag in tags(in: html) {
            switch tag.name {
            case "form":
                if let form = current { forms.append(form) }
                current = Form(
                    method: (tag.attributes["method"] ?? "get").lowercased(), action: tag.attributes["action"] ?? "", inputs: [])
            case "/form":
                if let form = current { forms.append(form) }
                current = nil
            case "input":
                current?.inputs.append(
                    Input(
                        type: (tag.attributes["type"] ?? "text").lowercased(), name: tag.attributes["name"] ?? "",
                        value: tag.attributes["value"] ?? ""))
            default: continue
            }
        }
        if let form = current { forms.append(form) }
        return forms
    }

    /// A start or end tag: its lower-cased name (`/form` for an end tag) and attributes (names lower-cased).
    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    /// The tags of `html`, skipping comments and the insides of `<script>` and `<style>`.
    static func tags(in html: String) -> [Tag] {
        let characters = Array(html)
        var tags: [Tag] = []
        var index = 0
        while index < characters.count {
            guard characters[index] == "<" else {
                index += 1
                continue
            }
            if starts(characters, at: index, with: "<!--") {
                index = find(characters, "-->", from: index + 4).map { $0 + 3 } ?? characters.count
                continue
            }
            var cursor = index + 1
            var name = ""
            while cursor < characters.count, !characters[cursor].isWhitespace, characters[cursor] != ">", characters[cursor] != "/" || name.isEmpty {
                name.append(characters[cursor])
                cursor += 1
            }
            name = name.lowercased()
            var attributes: [String: String] = [:]
            while cursor < characters.count, characters[cursor] != ">" {
                if characters[cursor].isWhitespace || characters[cursor] == "/" {
                    cursor += 1
                    continue
                }
                var attribute = ""
                while cursor < characters.count, !characters[cursor].isWhitespace, !"=>/".contains(characters[cursor]) {
                    attribute.append(characters[cursor])
                    cursor += 1
                }
                while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
                var value = ""
                if cursor < characters.count, characters[cursor] == "=" {
                    cursor += 1
                    while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
                    if cursor < characters.count, characters[cursor] == "\"" || characters[cursor] == "'" {
                        let quote = characters[cursor]
                        let end = characters[(cursor + 1)...].firstIndex(of: quote) ?? characters.count
                        value = String(characters[(cursor + 1)..<end])
                        cursor = min(end + 1, characters.count)
                    } else {
                        while cursor < characters.count, !characters[cursor].isWhitespace, characters[cursor] != ">" {
                            value.append(characters[cursor])
                            cursor += 1
                        }
                    }
                }
                if !attribute.isEmpty, attributes[attribute.lowercased()] == nil { attributes[attribute.lowercased()] = decodeEntities(value) }
            }
            tags.append(Tag(name: name, attributes: attributes))
            index = cursor + 1
            if name == "script" || name == "style" {
                index = find(characters, "</" + name, from: index, caseInsensitive: true) ?? characters.count
            }
        }
        return tags
    }

    /// Decodes the character references of an attribute value (`&amp;`, `&quot;`, `&#39;`, `&#x2F;`, …).
    package static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let entity = String(after[..<semicolon])
            var decoded: String?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[entity.lowercased()]
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func starts(_ characters: [Character], at index: Int, with prefix: String) -> Bool {
        let prefix = Array(prefix)
        return index + prefix.count <= characters.count && Array(characters[index..<(index + prefix.count)]) == prefix
    }

    private static func find(_ characters: [Character], _ needle: String, from start: Int, caseInsensitive: Bool = false) -> Int? {
        let needle = Array(caseInsensitive ? needle.lowercased() : needle)
        guard !needle.isEmpty, start <= characters.count - needle.count else { return nil }
        for index in start...(characters.count - needle.count) {
            var match = true
            for offset in 0..<needle.count {
                let character = caseInsensitive ? characters[index + offset].lowercased() : String(characters[index + offset])
                if character != String(needle[offset]) {
                    match = false
                    break
                }
            }
            if match { return index }
        }
        return nil
    }
}
