import EntitleCore
import Testing

/// The one form-URL encoder: ASCII unreserved characters stay, everything else is percent-encoded as UTF-8.
@Suite struct FormURLEncodingTests {
    @Test func nonASCIILettersAndDigitsArePercentEncoded() {
        #expect(FormURLEncoding.escape("Zoë") == "Zo%C3%AB")
        #expect(FormURLEncoding.escape("東京") == "%E6%9D%B1%E4%BA%AC")
        #expect(FormURLEncoding.escape("٣") == "%D9%A3")  // an Arabic-Indic digit is alphanumeric, not unreserved
    }

    @Test func unreservedASCIIStaysAndReservedIsEscaped() {
        #expect(FormURLEncoding.escape("aZ09-._~") == "aZ09-._~")
        #expect(FormURLEncoding.escape("a b&c=d+e/f?") == "a%20b%26c%3Dd%2Be%2Ff%3F")
    }

    @Test func encodeAndParseRoundTrip() {
        let fields = [("user", "Zoë Ñúñez"), ("redirect_url", "adobepass://ios.app?x=1&y=2"), ("empty", "")]
        let parsed = FormURLEncoding.parse(FormURLEncoding.encode(fields))
        #expect(parsed == Dictionary(uniqueKeysWithValues: fields))
        let encoded = FormURLEncoding.encode(fields)
        #expect(encoded.allSatisfy { $0.isASCII })
    }
}
