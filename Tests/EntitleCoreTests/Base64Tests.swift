import EntitleCore
import Foundation
import Testing

/// The one Base64 helper set: base64url without padding, lenient header decoding, whitespace-tolerant XML decoding.
@Suite struct Base64Tests {
    /// Bytes whose standard Base64 contains `+`, `/` and padding: `+/8=` is 0xFB 0xFF.
    private let awkward = Data([0xFB, 0xFF])

    @Test func base64URLUsesTheURLAlphabetWithoutPadding() {
        #expect(awkward.base64EncodedString() == "+/8=")
        #expect(awkward.base64URLEncodedString() == "-_8")
        #expect(Data().base64URLEncodedString() == "")
        #expect(Data("hello".utf8).base64URLEncodedString() == "aGVsbG8")
    }

    @Test func base64URLRoundTripsEveryLength() {
        for count in 0..<40 {
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) })
            let encoded = bytes.base64URLEncodedString()
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Data(base64URLEncoded: encoded) == bytes)
        }
    }

    @Test func base64URLDecodingIsStrict() {
        for bad in ["-_8=", "+/8", "aGVs bG8", "aGVsbG8\n", "a", "aGVsb", "é"] {
            #expect(Data(base64URLEncoded: bad) == nil, "\(bad)")
        }
    }

    @Test func lenientDecodingAcceptsBothAlphabetsMissingPaddingAndSurroundingWhitespace() {
        for text in ["+/8=", "+/8", "-_8", "-_8=", "  +/8=\n"] {
            #expect(Data(base64Lenient: text) == awkward, "\(text)")
        }
        #expect(Data(base64Lenient: "eyJhIjoxfQ") == Data(#"{"a":1}"#.utf8))
    }

    @Test func lenientDecodingRefusesWhatIsNotBase64() {
        for bad in ["", "   ", "a", "abcde", "not base64!", "+/ 8="] {
            #expect(Data(base64Lenient: bad) == nil, "\(bad)")
        }
    }

    @Test func whitespaceTolerantDecodingIgnoresLineBreaksAnywhere() {
        let bytes = Data((0..<100).map { UInt8($0) })
        let wrapped = bytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        #expect(wrapped.contains("\r\n"))
        #expect(Data(base64IgnoringWhitespace: "\n  " + wrapped + "\t\n") == bytes)
        #expect(Data(base64IgnoringWhitespace: "+/ 8=") == awkward)
    }

    @Test func whitespaceTolerantDecodingStaysStandard() {
        // The URL alphabet and missing padding are not accepted in signatures and certificates.
        for bad in ["-_8=", "+/8", "***", "not base64"] {
            #expect(Data(base64IgnoringWhitespace: bad) == nil, "\(bad)")
        }
    }
}
