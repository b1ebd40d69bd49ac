import Foundation

/// The package's Base64 helpers (RFC 4648), next to Foundation's strict standard-alphabet coding
/// (`base64EncodedString()`, `Data(base64Encoded:)`).
extension Data {
    /// Base64url (RFC 4648 §5) without padding: `+` as `-`, `/` as `_`, no trailing `=` (the form of JWTs and of
    /// tokens put into URLs and cookies).
    public func base64URLEncodedString() -> String {
        var bytes = Array(base64EncodedData())
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes base64url without padding, strictly: only `A-Z`, `a-z`, `0-9`, `-` and `_`; nil for anything else
    /// (padding, whitespace, the standard alphabet's `+` and `/`) or an impossible length.
    public init?(base64URLEncoded text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        self.init(base64Encoded: Data(bytes))
    }

    /// Decodes Base64 as clients send it in headers: the standard or the URL-safe alphabet, padding optional,
    /// whitespace around the value ignored; nil when empty or not Base64.
    public init?(base64Lenient text: String) {
        var normalized = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !normalized.isEmpty else { return nil }
        let remainder = normalized.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { normalized += String(repeating: "=", count: 4 - remainder) }
        self.init(base64Encoded: normalized)
    }

    /// Decodes standard Base64 (padding required) after removing spaces, tabs and line breaks anywhere in `text`, as
    /// XML documents (SAML signatures and certificates) and PEM bodies wrap it; nil when not Base64.
    public init?(base64IgnoringWhitespace text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: bytes.append(byte)
            }
        }
        self.init(base64Encoded: Data(bytes))
    }
}
