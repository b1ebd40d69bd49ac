import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, shared by the service, the DemoMVPD and the clients.
public enum FormURLEncoding {
    /// Parses `a=1&b=2` (`+` is a space; the last value of a repeated key wins; undecodable escapes are kept as sent).
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }

    /// Encodes fields in order.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes a value: everything but unreserved characters (RFC 3986).
    public static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// RFC 3986 unreserved characters, ASCII only (`CharacterSet.alphanumerics` would let non-ASCII letters through
    /// unescaped, which is not a valid form body or query).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func decode(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
