import EntitleModel
import EntitleStorage
import Foundation

/// Small JSON pieces written by hand on hot paths, byte-for-byte what `JSONCoding.encode` would write.
package enum FastJSON {
    /// A JSON string literal, escaped as `JSONEncoder` does with `.withoutEscapingSlashes`.
    package static func string(_ value: String) -> String {
        // Most values (tokens, ids) need no escaping: one pass over the bytes, then a single copy.
        if !needsEscaping(value) {
            return "\"" + value + "\""
        }
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether `value` holds a quote, a backslash or a control character: one pass over its bytes without a branch per
    /// byte, so the compiler can vectorize it (every authorize scans a media token of about 1.5 KB).
    package static func needsEscaping(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var hits: UInt8 = 0
            for byte in bytes {
                hits |= (byte < 0x20 ? 1 : 0) | (byte == UInt8(ascii: "\"") ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
            }
            return hits != 0
        }
    }
}
