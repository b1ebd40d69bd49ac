/// Escaping of untrusted text before it goes into a log line: a value from a request (a resource id, a user id, an
/// issuer, a URL) may hold terminal escape sequences, NUL or line breaks that would forge or hide log lines in an
/// operator's log viewer.
public enum LogEscaping {
    /// The longest value a log line carries, in characters; longer values are cut and marked.
    public static let maximumLength = 256

    /// `text` with every control character (C0, DEL, C1), line or paragraph separator and bidirectional override written
    /// as `\u{XX}`, and cut to `limit` characters.
    public static func escape(_ text: String, limit: Int = maximumLength) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                result += "…(\(text.unicodeScalars.count) characters)"
                break
            }
            count += 1
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a character must not reach a log line raw: controls, line and paragraph separators, bidirectional
    /// embeddings, overrides and isolates.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

extension String {
    /// This text escaped for a log line (see ``LogEscaping/escape(_:)``).
    public var logEscaped: String { LogEscaping.escape(self) }
}
