import Foundation

/// A strict scanner for the fixed `<shortAuthorizationToken>` body format.
///
/// Accepts exactly one `<shortAuthorizationToken>` element whose children are the seven token fields, each
/// exactly once, in any order, with optional XML whitespace between elements. Values are XML text: the five
/// predefined entities and numeric character references are decoded; CDATA, comments, attributes, nested
/// elements, unknown elements, control characters and invalid UTF-8 are refused. Runs in time linear in the input
/// and allocates only the decoded values (it is on the verifier's hot path).
struct MediaTokenScanner {
    private static let root: StaticString = "shortAuthorizationToken"
    /// Field names in `bodyXML()` order.
    static let fieldNames: [StaticString] = ["sessionGUID", "requestorID", "resourceID", "ttl", "issueTime", "mvpdId", "proxyMvpdId"]

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses a body; throws ``MediaTokenFormatError``.
    static func parse(_ body: [UInt8]) throws -> ShortMediaToken {
        try body.withUnsafeBufferPointer { try parse($0) }
    }

    /// Parses a body in place; throws ``MediaTokenFormatError``.
    static func parse(_ body: UnsafeBufferPointer<UInt8>) throws -> ShortMediaToken {
        var scanner = MediaTokenScanner(body)
        return try scanner.parseToken()
    }

    private mutating func parseToken() throws -> ShortMediaToken {
        let names = Self.fieldNames
        try expectByte(UInt8(ascii: "<"))
        try expectName(Self.root)
        try expectByte(UInt8(ascii: ">"))
        return try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: names.count) { ranges in
            try parseFields(names, into: ranges)
        }
    }

    private mutating func parseFields(_ names: [StaticString], into ranges: UnsafeMutableBufferPointer<Range<Int>>) throws -> ShortMediaToken {
        var seen: UInt32 = 0
        var expected = 0
        while true {
            skipWhitespace()
            try expectByte(UInt8(ascii: "<"))
            if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
                index += 1
                try expectName(Self.root)
                try expectByte(UInt8(ascii: ">"))
                guard index == bytes.count else {
                    throw MediaTokenFormatError(.malformedBody, "content after </shortAuthorizationToken>")
                }
                break
            }
            let field: Int
            if expected < names.count, matchesName(names[expected], at: index) {
                field = expected
            } else if let other = names.indices.first(where: { matchesName(names[$0], at: index) }) {
                field = other
            } else {
                let start = index
                while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
                throw index == start
                    ? MediaTokenFormatError(.malformedBody, "expected an element name")
                    : MediaTokenFormatError(.unknownElement, "unknown element in token body")
            }
            guard seen & (1 << field) == 0 else {
                throw MediaTokenFormatError(.duplicateElement, "element '\(names[field])' appears twice")
            }
            index += names[field].utf8CodeUnitCount
            try expectByte(UInt8(ascii: ">"))
            let textStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            ranges.initializeElement(at: field, to: textStart..<index)
            seen |= 1 << field
            try expectByte(UInt8(ascii: "<"))
            try expectByte(UInt8(ascii: "/"))
            try expectName(names[field])
            try expectByte(UInt8(ascii: ">"))
            expected = field + 1
        }
        for field in names.indices where seen & (1 << field) == 0 {
            throw MediaTokenFormatError(.missingElement, "element '\(names[field])' is missing")
        }
        func text(_ field: Int) throws -> String { try Self.decodeText(UnsafeBufferPointer(rebasing: bytes[ranges[field]])) }
        func number(_ field: Int) throws -> Int64 { try Self.number(UnsafeBufferPointer(rebasing: bytes[ranges[field]]), names[field]) }
        return ShortMediaToken(
            sessionGUID: try text(0), requestorID: try text(1), resourceID: try text(2),
            ttl: try number(3), issueTime: try number(4), mvpdID: try text(5), proxyMvpdID: try text(6))
    }

    // MARK: - Lexing

    /// Whether `name` followed by a non-name byte starts at `position`.
    private func matchesName(_ name: StaticString, at position: Int) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count - position > count, let base = bytes.baseAddress else { return false }
        return memcmp(base + position, name.utf8Start, count) == 0 && !Self.isNameByte(bytes[position + count])
    }

    private mutating func expectByte(_ byte: UInt8) throws {
        guard index < bytes.count, bytes[index] == byte else {
            throw MediaTokenFormatError(.malformedBody, "unexpected byte or end of token body")
        }
        index += 1
    }

    private mutating func expectName(_ name: StaticString) throws {
        guard matchesName(name, at: index) else { throw MediaTokenFormatError(.malformedBody, "unexpected element name") }
        index += name.utf8CodeUnitCount
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }

    // MARK: - Values

    private static func number(_ digits: UnsafeBufferPointer<UInt8>, _ name: StaticString) throws -> Int64 {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw MediaTokenFormatError(.invalidNumber, "'\(name)' is not a non-negative decimal number of at most 18 digits")
        }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit - UInt8(ascii: "0")) }
        return value
    }

    /// Decodes XML character data: entities, numeric references, UTF-8 validation, XML `Char` rules.
    static func decodeText(_ raw: UnsafeBufferPointer<UInt8>) throws -> String {
        var plainASCII = true
        for byte in raw {
            if byte < 0x20 {
                guard isWhitespace(byte) else { throw MediaTokenFormatError(.invalidText, "control character in token value") }
            } else if byte >= 0x80 || byte == UInt8(ascii: "&") {
                plainASCII = false
            }
        }
        if plainASCII { return String(decoding: raw, as: UTF8.self) }
        guard raw.contains(UInt8(ascii: "&")) else { return try validatedString(Array(raw)) }
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                i += 1
                continue
            }
            var semicolon = i + 1
            while semicolon < raw.count, semicolon < i + 12, raw[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
            guard semicolon < raw.count, raw[semicolon] == UInt8(ascii: ";") else {
                throw MediaTokenFormatError(.invalidText, "unterminated entity in token value")
            }
            let scalar = try decodeEntity(Array(raw[(i + 1)..<semicolon]))
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i = semicolon + 1
        }
        return try validatedString(out)
    }

    private static func decodeEntity(_ entity: [UInt8]) throws -> Unicode.Scalar {
        switch String(decoding: entity, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard entity.first == UInt8(ascii: "#"), entity.count >= 2 else {
            throw MediaTokenFormatError(.invalidText, "unknown entity in token value")
        }
        var digits = entity.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8 else {
            throw MediaTokenFormatError(.invalidText, "bad character reference in token value")
        }
        var value: UInt32 = 0
        for digit in digits {
            let d: UInt32
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: d = UInt32(digit - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: d = UInt32(digit - UInt8(ascii: "A")) + 10
            default: throw MediaTokenFormatError(.invalidText, "bad character reference in token value")
            }
            value = value * radix + d
        }
        guard XMLEscape.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
            throw MediaTokenFormatError(.invalidText, "character reference to a character XML forbids")
        }
        return scalar
    }

    private static func validatedString(_ bytes: [UInt8]) throws -> String {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw MediaTokenFormatError(.invalidText, "token value is not valid UTF-8")
        }
        for scalar in string.unicodeScalars where !XMLEscape.isXMLCharacter(scalar.value) {
            throw MediaTokenFormatError(.invalidText, "character XML forbids in token value")
        }
        return string
    }
}
