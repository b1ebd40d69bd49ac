/// An absolute http(s) URL taken from a request (a redirect target), parsed once by a strict subset of the WHATWG URL
/// rules: where a browser and a lenient parser could read a different host, the text is refused instead of repaired.
///
/// Refused: more than ``maximumLength`` bytes; any control character (C0, DEL, C1), space, tab, CR or LF anywhere; `\`
/// anywhere; a scheme other than `http`/`https`; anything but exactly `//` after the scheme; userinfo (`@` in the
/// authority); any `%` in the authority (so `%5C`, `%2F`, `%00`, `%2E` in the host); a non-ASCII host (IDN: `。`,
/// fullwidth letters and other text a browser would map are refused, not mapped) and a Punycode `xn--` label (IDN in
/// its ASCII form: this type does not decode it, and a browser refuses an invalid one); IPv6 literals; an empty host or label; a label of characters other than `a-z 0-9 - _`; a host whose last
/// label is a number unless it is a canonical dotted-decimal IPv4 address; an empty, non-decimal, zero or too large port.
///
/// Kept: the path, query and fragment as sent, with the characters the WHATWG percent-encode sets name (and every
/// non-ASCII character, as UTF-8) percent-encoded. The scheme and host are lower-cased, a default port is dropped and
/// an empty path becomes `/`; ``description`` is the serialization to redirect to, never the input.
package struct RedirectURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// The lower-cased ASCII host name or dotted-decimal IPv4 address.
    package let host: String
    /// The port when it is not the scheme's default.
    package let port: Int?
    /// The path, starting with `/`.
    package let path: String
    /// The query without its `?`, if any.
    package let query: String?
    /// The fragment without its `#`, if any.
    package let fragment: String?

    /// The longest text accepted, in UTF-8 bytes.
    package static let maximumLength = 2048

    /// Parses `text`; nil when it is not an http(s) URL these rules accept.
    package init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " || $0 == "\\" })
        else { return nil }
        // Split on ASCII bytes: a combining mark after `:`, `/`, `?` or `#` does not hide it.
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let slash = UInt8(ascii: "/")
        guard bytes.count > colon + 3, bytes[colon + 1] == slash, bytes[colon + 2] == slash, bytes[colon + 3] != slash else { return nil }
        let rest = bytes[(colon + 3)...]
        let authorityEnd = rest.firstIndex(where: { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
        guard let (host, port) = Self.authority(String(decoding: rest[..<authorityEnd], as: UTF8.self), scheme: scheme) else { return nil }
        var tail = rest[authorityEnd...]
        var fragment: String?
        if let hash = tail.firstIndex(of: UInt8(ascii: "#")) {
            fragment = Self.percentEncoded(tail[(hash + 1)...], set: "\"<>`")
            tail = tail[..<hash]
        }
        var query: String?
        if let mark = tail.firstIndex(of: UInt8(ascii: "?")) {
            query = Self.percentEncoded(tail[(mark + 1)...], set: "\"<>'")
            tail = tail[..<mark]
        }
        let path = Self.percentEncoded(tail, set: "\"<>`{}")
        (self.scheme, self.host, self.port) = (scheme, host, port)
        (self.path, self.query, self.fragment) = (path.isEmpty ? "/" : path, query, fragment)
    }

    /// The URL to redirect to: `scheme://host[:port]path[?query][#fragment]`.
    package var description: String {
        origin + path + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
    }

    /// `scheme://host[:port]`.
    package var origin: String { scheme + "://" + host + (port.map { ":\($0)" } ?? "") }

    /// Whether the host is an IPv4 address.
    package var isIPAddress: Bool { host.split(separator: ".").last?.allSatisfy(\.isASCIIDigit) == true }

    /// Whether the host is `domain` (compared lower-cased) or, for a host name, a subdomain of it.
    package func isOn(domain: String) -> Bool {
        let domain = domain.lowercased()
        guard !domain.isEmpty else { return false }
        return host == domain || (!isIPAddress && host.hasSuffix("." + domain))
    }

    /// Whether `text` is an app's URI that may be registered and matched exactly: a custom scheme
    /// (`[A-Za-z][A-Za-z0-9+.-]*`, not `http`, `https` or a scheme that runs code or reads local data) and only
    /// printable ASCII other than `\`, at most ``maximumLength`` bytes.
    package static func isAppURI(_ text: String) -> Bool {
        guard text.utf8.count <= maximumLength, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }),
            let colon = text.firstIndex(of: ":")
        else { return false }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-" })
        else { return false }
        return !["http", "https", "javascript", "data", "vbscript", "file", "blob", "about"].contains(scheme)
    }

    /// The lower-cased host and the non-default port of an authority; nil when it breaks a rule of the type.
    private static func authority(_ authority: String, scheme: String) -> (String, Int?)? {
        guard authority.utf8.allSatisfy({ $0 < 0x80 }), !authority.contains("@"), !authority.contains("%"),
            !authority.hasPrefix("[")
        else { return nil }
        let parts = authority.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = Self.host(parts[0].lowercased()) else { return nil }
        guard parts.count == 2 else { return (host, nil) }
        let digits = parts[1]
        guard (1...5).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let port = Int(digits), (1...65535).contains(port) else {
            return nil
        }
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return (host, isDefault ? nil : port)
    }

    /// `name` when it is a host name of non-empty labels of `a-z 0-9 - _`, or a canonical dotted-decimal IPv4 address.
    private static func host(_ name: String) -> String? {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253,
            labels.allSatisfy({
                !$0.isEmpty && $0.count <= 63 && !$0.hasPrefix("xn--")
                    && $0.allSatisfy { $0.isASCIIDigit || ("a"..."z").contains($0) || $0 == "-" || $0 == "_" }
            })
        else { return nil }
        // WHATWG reads a host whose last label is a number (decimal or 0x…) as an IPv4 address in any of its forms.
        let last = labels[labels.count - 1]
        guard last.allSatisfy(\.isASCIIDigit) || last.hasPrefix("0x") else { return name }
        let isCanonical =
            labels.count == 4
            && labels.allSatisfy { label in
                label.allSatisfy(\.isASCIIDigit) && (label == "0" || !label.hasPrefix("0")) && label.count <= 3 && Int(label)! <= 255
            }
        return isCanonical ? name : nil
    }

    /// `text` with every non-ASCII character and every character of `set` percent-encoded as UTF-8.
    private static func percentEncoded(_ text: ArraySlice<UInt8>, set: String) -> String {
        let special = Set(set.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        for byte in text {
            if byte >= 0x80 || special.contains(byte) {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Character {
    /// Whether this is one of `0`…`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
