import Foundation

/// Base64 helpers tolerant of the line breaks many IdPs insert.
enum Base64 {
    /// Decodes base64 after removing ASCII whitespace; nil when invalid.
    static func decode(_ text: String) -> [UInt8]? {
        var cleaned = ""
        cleaned.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars where !(c == " " || c == "\n" || c == "\r" || c == "\t") {
            cleaned.unicodeScalars.append(c)
        }
        guard let data = Data(base64Encoded: cleaned) else { return nil }
        return [UInt8](data)
    }

    /// Standard base64 without line breaks.
    static func encode<B: Sequence>(_ bytes: B) -> String where B.Element == UInt8 {
        Data(bytes).base64EncodedString()
    }
}
