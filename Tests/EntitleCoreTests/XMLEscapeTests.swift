import EntitleCore
import Testing

/// The one XML/HTML escape: text, attribute and HTML rules, and the decoder the clients read markup with.
@Suite struct XMLEscapeTests {
    @Test func textEscapesMarkupAndCarriageReturnOnly() {
        #expect(XMLEscape.text("Tom & Jerry's <rss version=\"2.0\">") == "Tom &amp; Jerry&apos;s &lt;rss version=&quot;2.0&quot;&gt;")
        #expect(XMLEscape.text("a\r\nb\tc") == "a&#13;\nb\tc")
        // Characters XML forbids are the caller's to reject: text keeps them.
        #expect(XMLEscape.text("a\u{1}b") == "a\u{1}b")
    }

    @Test func attributeAlsoProtectsWhitespaceAndDropsForbiddenCharacters() {
        #expect(XMLEscape.attribute("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(XMLEscape.attribute("line\nbreak\r\ttab") == "line&#10;break&#13;&#9;tab")
        #expect(XMLEscape.attribute("x\u{0}y\u{1F}z\u{FFFE}\u{FFFF}!") == "xyz!")
        #expect(XMLEscape.attribute("\u{FFFD}\u{E000}\u{10FFFF}") == "\u{FFFD}\u{E000}\u{10FFFF}")
    }

    @Test func htmlUsesTheNumericApostropheAndKeepsWhitespace() {
        #expect(XMLEscape.html("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
        #expect(XMLEscape.html("a=1&b=\"2\"\n") == "a=1&amp;b=&quot;2&quot;\n")
    }

    @Test func escapingIsPerScalarSoCombiningMarksCannotHideAQuote() {
        // `"` followed by a combining mark is one Character in Swift but still a quote to an HTML or XML parser.
        #expect(XMLEscape.html("\"\u{301}") == "&quot;\u{301}")
        #expect(XMLEscape.attribute("'\u{301}") == "&apos;\u{301}")
    }

    /// The quick "nothing to escape" check misses no character a rule writes differently: for every ASCII byte and the
    /// non-ASCII characters the rules treat specially, alone and between plain text, the value comes back changed
    /// exactly when the character is in the rule's list (the exact escapes are checked above).
    @Test func theQuickCheckMissesNoCharacterAnyRuleWrites() {
        let markup: Set<Unicode.Scalar> = ["&", "<", ">", "\"", "'"]
        let controls = Set((0..<0x20).map { Unicode.Scalar(UInt8($0)) })
        let rules: [(name: String, escape: (String) -> String, changes: Set<Unicode.Scalar>)] = [
            ("text", XMLEscape.text, markup.union(["\r"])),
            ("attribute", XMLEscape.attribute, markup.union(controls).union(["\u{FFFE}", "\u{FFFF}"])),
            ("html", XMLEscape.html, markup),
        ]
        let scalars: [Unicode.Scalar] = (0..<0x80).map { Unicode.Scalar(UInt8($0)) } + ["\u{E9}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{1F600}"]
        for rule in rules {
            for scalar in scalars {
                for value in [String(scalar), "id-\(scalar)-42"] {
                    #expect((rule.escape(value) != value) == rule.changes.contains(scalar), "\(rule.name): U+\(String(scalar.value, radix: 16))")
                }
            }
        }
    }

    @Test func plainValuesComeBackUnchanged() {
        for value in ["", "REF", "https://sp.example.com/acs", "Zoë 東京 😀", "1894694400000"] {
            #expect(XMLEscape.text(value) == value)
            #expect(XMLEscape.attribute(value) == value)
            #expect(XMLEscape.html(value) == value)
        }
    }

    @Test func unescapeDecodesEntitiesAndCharacterReferencesOnce() {
        #expect(XMLEscape.unescape("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&#39;") == "<a href=\"x\">Tom & Jerry's'")
        #expect(XMLEscape.unescape("&#x2F;&#X3D;&#61;&#43;&#13;") == "/==+\r")
        #expect(XMLEscape.unescape("&amp;lt;") == "&lt;")
    }

    @Test func unescapeKeepsWhatItDoesNotKnow() {
        for text in ["&", "a & b", "&bogus;", "&#;", "&#x;", "&#0;", "&#xD800;", "&#x110000;", "&#+65;", "&#12345678901;", "&amp"] {
            #expect(XMLEscape.unescape(text) == text)
        }
    }

    @Test func everyEscapeRoundTrips() {
        let value = "a&b<c>d\"e'f\r\ng\th é😀"
        #expect(XMLEscape.unescape(XMLEscape.text(value)) == value)
        #expect(XMLEscape.unescape(XMLEscape.attribute(value)) == value)
        #expect(XMLEscape.unescape(XMLEscape.html(value)) == value)
    }

    @Test func xmlCharacterRange() {
        for value: UInt32 in [0x9, 0xA, 0xD, 0x20, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF] {
            #expect(XMLEscape.isXMLCharacter(value))
        }
        for value: UInt32 in [0x0, 0x8, 0xB, 0x1F, 0xD800, 0xDFFF, 0xFFFE, 0xFFFF, 0x110000] {
            #expect(!XMLEscape.isXMLCharacter(value))
        }
    }
}
