import EntitleCore
import Foundation
import NIOCore

/// The decisions endpoints' JSON on the hot path, written and read by hand: byte-for-byte what `JSONCoding.encode`
/// writes (sorted keys, slashes unescaped), and the same resources `JSONDecoder` reads from the usual body. Anything
/// unusual (an error in a decision, escapes or extra keys in the body) takes the general coders.
enum DecisionsJSON {
    /// The answer's JSON text.
    static func encode(_ response: DecisionsResponse) -> Data {
        guard let text = fastText(response) else { return JSONCoding.encode(response) }
        return Data(text.utf8)
    }

    /// The answer's JSON as the response body: the hand-written text written straight into the buffer (no `Data` in
    /// between, whose generic initializer casts dynamically).
    static func body(_ response: DecisionsResponse) -> ByteBuffer {
        guard let text = fastText(response) else { return ByteBuffer(data: JSONCoding.encode(response)) }
        return ByteBuffer(string: text)
    }

    /// The hand-written JSON text; nil when a decision carries an error (the general encoder writes those).
    private static func fastText(_ response: DecisionsResponse) -> String? {
        guard response.decisions.allSatisfy({ $0.error == nil }) else { return nil }
        var out = "{\"decisions\":["
        for (index, decision) in response.decisions.enumerated() {
            if index > 0 { out += "," }
            out += "{\"authorized\":" + (decision.authorized ? "true" : "false")
            out += ",\"mvpd\":" + FastJSON.string(decision.mvpd)
            if let notAfter = decision.notAfter { out += ",\"notAfter\":" + String(notAfter) }
            if let notBefore = decision.notBefore { out += ",\"notBefore\":" + String(notBefore) }
            out += ",\"resource\":" + FastJSON.string(decision.resource)
            out += ",\"serviceProvider\":" + FastJSON.string(decision.serviceProvider)
            out += ",\"source\":" + FastJSON.string(decision.source.rawValue)
            if let token = decision.token {
                out += ",\"token\":{"
                if let issuedAt = token.issuedAt { out += "\"issuedAt\":" + String(issuedAt) + "," }
                out += "\"notAfter\":" + String(token.notAfter) + ",\"notBefore\":" + String(token.notBefore)
                out += ",\"serializedToken\":" + FastJSON.string(token.serializedToken) + "}"
            }
            out += "}"
        }
        return out + "]}"
    }

    /// The resources of `{"resources": ["…", …]}` without escapes; nil for anything else (use `JSONDecoder`).
    static func resources(_ text: String) -> [String]? {
        var bytes = Substring(text).utf8[...]
        func skipSpace() { while let byte = bytes.first, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { bytes.removeFirst() } }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard bytes.first == byte else { return false }
            bytes.removeFirst()
            return true
        }
        func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            let content = bytes[..<end]
            // Escapes and control characters: the general decoder says what they mean (or refuses them).
            guard !content.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }) else { return nil }
            bytes = bytes[bytes.index(after: end)...]
            return String(Substring(content))
        }
        guard take(UInt8(ascii: "{")), string() == "resources", take(UInt8(ascii: ":")), take(UInt8(ascii: "[")) else { return nil }
        var resources: [String] = []
        skipSpace()
        if bytes.first == UInt8(ascii: "]") {
            bytes.removeFirst()
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
        return bytes.isEmpty ? resources : nil
    }
}
