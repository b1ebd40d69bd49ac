import Foundation

/// A strict scanner for the fixed `<shortAuthorizationToken>` body format.
///
/// Accepts exactly one `<shortAuthorizationToken>` element whose children are the seven token fields, each
/// exactly once, in any order, with optional XML whitespace between elements. Values are XML text: the five
/// predefined entities and numeric character references are decoded; CDATA, comments, attributes, nested
/// elements, unknown elements, control characters and invalid UTF-8 are refused. Runs in time linear in the input.
struct MediaTokenScanner {
    private static let root = Array("shortAuthorizationToken".utf8)
    /// Field names in `bodyXML()` order.
    static let fieldNames: [[UInt8]] = ["sessionGUID", "requestorID", "resourceID", "ttl", "issueTime", "mvpdId", "proxyMvpdId"]
        .map { Array($0.utf8) }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses a body; throws ``MediaTokenFormatError``.
    static func parse(_ body: [UInt8]) throws -> ShortMediaToken {
        var scanner = MediaTokenScanner(body)
        return try scanner.parseToken()
    }

    private mutating func parseToken() throws -> ShortMediaToken {
        try expectByte(UInt8(ascii: "<"))
        try expectName(Self.root)
        try expectByte(UInt8(ascii: ">"))
        var values = [String?](repeating: nil, count: Self.fieldNames.count)
        while true {
            skipWhitespace()
            try expectByte(UInt8(ascii: "<"))
            if peek() == UInt8(ascii: "/") {
                index += 1
                try expectName(Self.root)
                try expectByte(UInt8(ascii: ">"))
                guard index == bytes.count else {
                    throw MediaTokenFormatError(.malformedBody, "content after </shortAuthorizationToken>")
                }
                break
            }
            let nameStart = index
            while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
            let name = bytes[nameStart..<index]
            guard !name.isEmpty else { throw MediaTokenFormatError(.malformedBody, "expected an element name") }
            guard let field = Self.fieldNames.firstIndex(where: { $0.elementsEqual(name) }) else {
                throw MediaTokenFormatError(.unknownElement, "unknown element in token body")
            }
            try expectByte(UInt8(ascii: ">"))
            guard values[field] == nil else {
                throw MediaTokenFormatError(.duplicateElement, "element '\(String(decoding: Self.fieldNames[field], as: UTF8.self))' appears twice")
            }
            let textStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            let text = try Self.decodeText(bytes[textStart..<index])
            try expectByte(UInt8(ascii: "<"))
            try expectByte(UInt8(ascii: "/"))
            try expectName(Self.fieldNames[field])
            try expectByte(UInt8(ascii: ">"))
            values[field] = text
        }
        for (field, value) in values.enumerated() where value == nil {
            throw MediaTokenFormatError(.missingElement, "element '\(String(decoding: Self.fieldNames[field], as: UTF8.self))' is missing")
        }
        return ShortMediaToken(
            sessionGUID: values[0]!, requestorID: values[1]!, resourceID: values[2]!,
            ttl: try Self.number(values[3]!, "ttl"), issueTime: try Self.number(values[4]!, "issueTime"),
            mvpdID: values[5]!, proxyMvpdID: values[6]!)
    }

    // MARK: - Lexing

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func expectByte(_ byte: UInt8) throws {
        guard index < bytes.count, bytes[index] == byte else {
            throw MediaTokenFormatError(.malformedBody, "unexpected byte or end of token body")
        }
        index += 1
    }

    private mutating func expectName(_ name: [UInt8]) throws {
        guard bytes.count - index >= name.count, bytes[index..<(index + name.count)].elementsEqual(name) else {
            throw MediaTokenFormatError(.malformedBody, "unexpected element name")
        }
        index += name.count
        if let next = peek(), Self.isNameByte(next) {
            throw MediaTokenFormatError(.malformedBody, "unexpected element name")
        }
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

    private static func number(_ text: String, _ name: String) throws -> Int64 {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18, utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw MediaTokenFormatError(.invalidNumber, "'\(name)' is not a non-negative decimal number of at most 18 digits")
        }
        var value: Int64 = 0
        for digit in utf8 { value = value * 10 + Int64(digit - UInt8(ascii: "0")) }
        return value
    }

    /// Decodes XML character data: entities, numeric references, UTF-8 validation, XML `Char` rules.
    static func decodeText(_ raw: ArraySlice<UInt8>) throws -> String {
        for byte in raw where byte < 0x20 && !isWhitespace(byte) {
            throw MediaTokenFormatError(.invalidText, "control character in token value")
        }
        guard raw.contains(UInt8(ascii: "&")) else { return try validatedString(raw) }
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let byte = raw[i]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                i += 1
                continue
            }
            guard let semicolon = raw[i..<min(raw.endIndex, i + 12)].firstIndex(of: UInt8(ascii: ";")) else {
                throw MediaTokenFormatError(.invalidText, "unterminated entity in token value")
            }
            let entity = raw[(i + 1)..<semicolon]
            let scalar = try decodeEntity(entity)
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
            i = semicolon + 1
        }
        return try validatedString(out[...])
    }

    private static func decodeEntity(_ entity: ArraySlice<UInt8>) throws -> Unicode.Scalar {
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
        guard MediaTokenXML.isXMLChar(value), let scalar = Unicode.Scalar(value) else {
            throw MediaTokenFormatError(.invalidText, "character reference to a character XML forbids")
        }
        return scalar
    }

    private static func validatedString(_ bytes: ArraySlice<UInt8>) throws -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw MediaTokenFormatError(.invalidText, "token value is not valid UTF-8")
        }
        for scalar in string.unicodeScalars where !MediaTokenXML.isXMLChar(scalar.value) {
            throw MediaTokenFormatError(.invalidText, "character XML forbids in token value")
        }
        return string
    }
}
