/// Escaping for the XML and HTML the package writes, and the reverse for markup it reads: one implementation
/// shared by the SAML library, the media-token writer, the service's pages and the test clients.
public enum XMLEscape {
    /// Element text: `&`, `<`, `>`, `"` and `'` as entity references (`'` as `&apos;`) and carriage return as `&#13;`
    /// (a parser would turn a raw one into a line feed). Every other character is kept, so the caller rejects the
    /// characters XML 1.0 forbids (see ``isXMLCharacter(_:)``).
    public static func text(_ value: String) -> String {
        escape(value, rules: .text)
    }

    /// Attribute values, and text that must come out of any XML parser exactly as it went in: as ``text(_:)``, plus
    /// line feed and tab as `&#10;` and `&#9;` (attribute-value normalization would turn them into spaces).
    /// Characters XML 1.0 forbids are dropped.
    public static func attribute(_ value: String) -> String {
        escape(value, rules: .attribute)
    }

    /// HTML text and attribute values: `&`, `<`, `>`, `"` and `'` (`'` as `&#39;`, which HTML 4 also knows); every
    /// other character is kept. The same escaping as a Mustache `{{value}}`.
    public static func html(_ value: String) -> String {
        escape(value, rules: .html)
    }

    /// Decodes the five predefined entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and decimal or hexadecimal
    /// character references (`&#39;`, `&#x2F;`) in one pass; anything else (an unknown entity, a reference to a
    /// character XML forbids, a stray `&`) is kept as written.
    public static func unescape(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let reference = rest[amp...].dropFirst()
            if let semicolon = reference.prefix(12).firstIndex(of: ";"),
                let decoded = decodeReference(reference[..<semicolon])
            {
                out.unicodeScalars.append(decoded)
                rest = reference[reference.index(after: semicolon)...]
            } else {
                out += "&"
                rest = reference
            }
        }
        out += rest
        return out
    }

    /// Whether a Unicode scalar value is an XML 1.0 `Char` (tab, line feed, carriage return, and the ranges
    /// `#x20-#xD7FF`, `#xE000-#xFFFD`, `#x10000-#x10FFFF`).
    public static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    // MARK: - One implementation

    private struct Rules {
        /// How `'` is written.
        var apostrophe: String
        /// Carriage return as `&#13;`.
        var carriageReturn: Bool
        /// Line feed and tab as `&#10;` and `&#9;`.
        var lineFeedAndTab: Bool
        /// Characters XML 1.0 forbids are left out.
        var dropsNonXMLCharacters: Bool

        static let text = Rules(apostrophe: "&apos;", carriageReturn: true, lineFeedAndTab: false, dropsNonXMLCharacters: false)
        static let attribute = Rules(apostrophe: "&apos;", carriageReturn: true, lineFeedAndTab: true, dropsNonXMLCharacters: true)
        static let html = Rules(apostrophe: "&#39;", carriageReturn: false, lineFeedAndTab: false, dropsNonXMLCharacters: false)
    }

    /// Whether `value` has a byte that `rules` write differently: `&`, `<`, `>`, `"`, `'`; carriage return, line feed
    /// and tab where the rules escape them; other C0 controls and 0xEF (which leads U+FFFE and U+FFFF) where they drop
    /// characters XML forbids. One pass without a branch per byte, so the compiler can vectorize it (every media token's
    /// values go through it).
    private static func needsWork(_ value: String, rules: Rules) -> Bool {
        let carriageReturn: UInt8 = rules.carriageReturn ? 1 : 0
        let lineFeedAndTab: UInt8 = rules.lineFeedAndTab ? 1 : 0
        let drops: UInt8 = rules.dropsNonXMLCharacters ? 1 : 0
        var value = value
        return value.withUTF8 { bytes in
            var hits: UInt8 = 0
            for byte in bytes {
                let markup: UInt8 =
                    (byte == 0x26 ? 1 : 0) | (byte == 0x3C ? 1 : 0) | (byte == 0x3E ? 1 : 0) | (byte == 0x22 ? 1 : 0) | (byte == 0x27 ? 1 : 0)
                let whitespace: UInt8 = (byte == 0x0D ? carriageReturn : 0) | (byte == 0x0A || byte == 0x09 ? lineFeedAndTab : 0)
                let forbidden: UInt8 = ((byte < 0x20 && byte != 0x0D && byte != 0x0A && byte != 0x09) || byte == 0xEF) ? drops : 0
                hits |= markup | whitespace | forbidden
            }
            return hits != 0
        }
    }

    private static func escape(_ value: String, rules: Rules) -> String {
        // Most values (ids, URLs, numbers) need nothing: return them without copying.
        guard needsWork(value, rules: rules) else { return value }
        var out = ""
        out.reserveCapacity(value.utf8.count + 16)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += rules.apostrophe
            case "\r" where rules.carriageReturn: out += "&#13;"
            case "\n" where rules.lineFeedAndTab: out += "&#10;"
            case "\t" where rules.lineFeedAndTab: out += "&#9;"
            default:
                if rules.dropsNonXMLCharacters && !isXMLCharacter(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The character of `name` (what stands between `&` and `;`), or nil when it is not one this decoder knows.
    private static func decodeReference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard name.first == "#" else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == "x" || digits.first == "X" {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8,
            digits.allSatisfy({ $0.isASCII && (radix == 16 ? $0.isHexDigit : $0.isNumber) }),
            let value = UInt32(digits, radix: Int(radix)), isXMLCharacter(value)
        else { return nil }
        return Unicode.Scalar(value)
    }
}
