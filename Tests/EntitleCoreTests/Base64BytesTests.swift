import Foundation
@testable import EntitleCore
import Testing

/// ``Base64Bytes`` writes what Foundation's `base64EncodedData()` writes, for every length's remainder and every byte.
struct Base64BytesTests {
    @Test func rfc4648VectorsEncodeAsTheRFCGivesThem() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            var out: [UInt8] = []
            Base64Bytes.append(Array(plain.utf8), to: &out)
            #expect(String(decoding: out, as: UTF8.self) == encoded, "\(plain)")
            #expect(Base64Bytes.encodedCount(plain.utf8.count) == encoded.utf8.count)
        }
    }

    @Test func everyLengthAndByteEncodesAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var out: [UInt8] = []
            Base64Bytes.append(Data(bytes), to: &out)
            #expect(out == Array(Data(bytes).base64EncodedData()), "length \(length)")
        }
        let all = Array(0...255).map(UInt8.init)
        var out: [UInt8] = []
        Base64Bytes.append(all, to: &out)
        #expect(out == Array(Data(all).base64EncodedData()))
    }

    @Test func appendingKeepsWhatTheBufferHeld() {
        var out = Array("<signatureInfo>".utf8)
        Base64Bytes.append(Array("foob".utf8), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "<signatureInfo>Zm9vYg==")
    }
}
