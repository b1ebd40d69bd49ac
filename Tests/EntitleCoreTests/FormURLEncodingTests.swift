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

/// Percent-decoding and the lowercase-hex form (the SAML HTTP-Redirect binding re-encodes values both ways).
@Suite struct PercentDecodingTests {
    @Test func lowercaseHexIsAvailableForSignatureChecks() {
        #expect(FormURLEncoding.escape("a/b+c=", lowercaseHex: true) == "a%2fb%2bc%3d")
        #expect(FormURLEncoding.escape("a/b+c=") == "a%2Fb%2Bc%3D")
        #expect(FormURLEncoding.escape("é", lowercaseHex: true) == "%c3%a9")
    }

    @Test func decodeReadsEitherCaseAndPlusAsSpace() {
        #expect(FormURLEncoding.decode("a%2fb%2Bc+d") == "a/b+c d")
        #expect(FormURLEncoding.decode("Zo%C3%AB") == "Zoë")
        #expect(FormURLEncoding.decode("") == "")
    }

    @Test func decodeRefusesBrokenEscapesAndInvalidUTF8() {
        for bad in ["%", "%2", "%zz", "a%G0", "%C3", "%FF"] {
            #expect(FormURLEncoding.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func parseKeepsWhatDoesNotDecode() {
        #expect(FormURLEncoding.parse("a=%zz+1&b=%C3&c=x%20y&d") == ["a": "%zz 1", "b": "%C3", "c": "x y", "d": ""])
        #expect(FormURLEncoding.parse("k=1&k=2") == ["k": "2"])
    }

    @Test func escapedValuesAreSafePathSegments() {
        #expect(FormURLEncoding.escape("Demo Cable/../x?y#z") == "Demo%20Cable%2F..%2Fx%3Fy%23z")
    }
}
