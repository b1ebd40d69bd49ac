import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, and RFC 3986 percent-encoding in general: the one
/// encoder of the service, the DemoMVPD, the SAML library, the SDK and the command-line tool.
public enum FormURLEncoding {
    /// Parses `a=1&b=2` (`+` is a space; the last value of a repeated key wins; undecodable escapes are kept as sent).
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[decodeOrKeep(parts[0])] = parts.count > 1 ? decodeOrKeep(parts[1]) : ""
        }
        return result
    }

    /// Encodes fields in order.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes a value: every UTF-8 byte but the ASCII unreserved characters of RFC 3986
    /// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`, so the result is also a safe URL path segment. Hex digits are
    /// uppercase, or lowercase when `lowercaseHex` (the form some SAML senders sign).
    public static func escape(_ value: String, lowercaseHex: Bool = false) -> String {
        guard !value.utf8.allSatisfy(isUnreserved) else { return value }
        let hex = Array((lowercaseHex ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (either case) and `+` (a space); nil on a broken escape or when the bytes are not UTF-8.
    public static func decode<S: StringProtocol>(_ text: S) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = bytes.popFirst().flatMap(hexValue), let low = bytes.popFirst().flatMap(hexValue) else { return nil }
                out.append(high << 4 | low)
            case UInt8(ascii: "+"):
                out.append(UInt8(ascii: " "))
            default:
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// RFC 3986 unreserved, ASCII only (`CharacterSet.alphanumerics` would let non-ASCII letters through unescaped,
    /// which is not a valid form body or query).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// A field name or value as parsed: decoded, or as sent (with `+` as a space) when it does not decode.
    private static func decodeOrKeep(_ part: Substring) -> String {
        decode(part) ?? part.replacingOccurrences(of: "+", with: " ")
    }
}
