import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore

/// The decisions endpoints' JSON on the hot path, written and read by hand: byte-for-byte what `JSONCoding.encode`
/// writes (sorted keys, slashes unescaped), and the same resources `JSONDecoder` reads from the usual body. Anything
/// unusual (an error in a decision, escapes or extra keys in the body) takes the general coders.
package enum DecisionsJSON {
    /// The answer's JSON text.
    package static func encode(_ response: DecisionsResponse) -> Data {
        guard let body = fastBody(response) else { return JSONCoding.encode(response) }
        return Data(body.readableBytesView)
    }

    /// The answer's JSON as the response body, written straight into the buffer: no intermediate `String` grown by
    /// concatenation, no `Data`.
    package static func body(_ response: DecisionsResponse) -> ByteBuffer {
        fastBody(response) ?? ByteBuffer(data: JSONCoding.encode(response))
    }

    /// The hand-written JSON; nil when a decision carries an error or a string that needs escaping (the general encoder
    /// writes those). A bound of the length is worked out first, so the whole text is copied into the buffer's memory in
    /// one write rather than one checked `ByteBuffer.writeString` per piece.
    private static func fastBody(_ response: DecisionsResponse) -> ByteBuffer? {
        var length = 16
        /// Adds `text`'s length; false when it needs escaping.
        func counted(_ text: String) -> Bool {
            length += text.utf8.count
            return !FastJSON.needsEscaping(text)
        }
        for decision in response.decisions {
            guard decision.error == nil, counted(decision.mvpd), counted(decision.resource), counted(decision.serviceProvider),
                counted(decision.source.rawValue)
            else { return nil }
            // The fixed text of a decision is under 110 bytes, of a token under 70.
            length += 160 + 2 * RawJSONWriter.maximumIntegerLength
            if let token = decision.token {
                guard counted(token.serializedToken) else { return nil }
                length += 80 + 3 * RawJSONWriter.maximumIntegerLength
            }
        }
        var out = ByteBufferAllocator().buffer(capacity: length)
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { memory in
            var writer = RawJSONWriter(memory)
            writer.write("{\"decisions\":[")
            for (index, decision) in response.decisions.enumerated() {
                if index > 0 { writer.write(",") }
                writer.write(decision.authorized ? "{\"authorized\":true" : "{\"authorized\":false")
                writer.write(",\"mvpd\":")
                writer.writeQuoted(decision.mvpd)
                if let notAfter = decision.notAfter {
                    writer.write(",\"notAfter\":")
                    writer.write(notAfter)
                }
                if let notBefore = decision.notBefore {
                    writer.write(",\"notBefore\":")
                    writer.write(notBefore)
                }
                writer.write(",\"resource\":")
                writer.writeQuoted(decision.resource)
                writer.write(",\"serviceProvider\":")
                writer.writeQuoted(decision.serviceProvider)
                writer.write(",\"source\":")
                writer.writeQuoted(decision.source.rawValue)
                if let token = decision.token {
                    writer.write(",\"token\":{")
                    if let issuedAt = token.issuedAt {
                        writer.write("\"issuedAt\":")
                        writer.write(issuedAt)
                        writer.write(",")
                    }
                    writer.write("\"notAfter\":")
                    writer.write(token.notAfter)
                    writer.write(",\"notBefore\":")
                    writer.write(token.notBefore)
                    writer.write(",\"serializedToken\":")
                    writer.writeQuoted(token.serializedToken)
                    writer.write("}")
                }
                writer.write("}")
            }
            writer.write("]}")
            return writer.count
        }
        return out
    }

    /// The resources of `{"resources": ["…", …]}` without escapes; nil for anything else (use `JSONDecoder`).
    package static func resources(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { resources(bytes: $0) }
    }

    private static func resources(bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                // Escapes and control characters: the general decoder says what they mean (or refuses them).
                guard bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        guard take(UInt8(ascii: "{")), string() == "resources", take(UInt8(ascii: ":")), take(UInt8(ascii: "[")) else { return nil }
        var resources: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            while true {
                guard let resource = string() else { return nil }
                resources.append(resource)
                if take(UInt8(ascii: "]")) { break }
                guard take(UInt8(ascii: ",")) else { return nil }
            }
        }
        guard take(UInt8(ascii: "}")) else { return nil }
        skipSpace()
        return index == bytes.count ? resources : nil
    }
}
