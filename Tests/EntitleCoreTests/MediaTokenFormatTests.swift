import _CryptoExtras
import Foundation
@testable import EntitleCore
import Testing

@Suite struct MediaTokenFormatTests {
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    let token = ShortMediaToken(
        sessionGUID: "4c2a9e0c", requestorID: "REF", resourceID: "news", ttl: 420_000,
        issueTime: 1_894_694_400_000, mvpdID: "DemoCable", proxyMvpdID: "")

    @Test func bodyHasTheFixedOrderOnOneLine() {
        #expect(
            token.bodyXML() == "<shortAuthorizationToken><sessionGUID>4c2a9e0c</sessionGUID><requestorID>REF</requestorID>"
                + "<resourceID>news</resourceID><ttl>420000</ttl><issueTime>1894694400000</issueTime><mvpdId>DemoCable</mvpdId>"
                + "<proxyMvpdId></proxyMvpdId></shortAuthorizationToken>")
    }

    @Test func valuesAreEscapedAndRoundTrip() throws {
        var special = token
        special.resourceID = #"<rss version="2.0"><channel><title>Tom & Jerry's</title></channel></rss>"#
        special.mvpdID = "a\r\nb\tc é 😀"
        let body = special.bodyXML()
        #expect(body.contains("&lt;rss version=&quot;2.0&quot;&gt;"))
        #expect(body.contains("Tom &amp; Jerry&apos;s"))
        #expect(body.contains("a&#13;\nb\tc"))
        #expect(try MediaTokenScanner.parse(Array(body.utf8)) == special)
    }

    @Test func signedTokenHasTheDocumentedLayout() throws {
        let serialized = try MediaTokenSigner(privateKey: Self.key).serialize(token)
        #expect(serialized.hasPrefix("PHNpZ25hdHVyZUluZm8+"))  // Base64 of "<signatureInfo>"
        let decoded = String(decoding: Data(base64Encoded: serialized)!, as: UTF8.self)
        let parts = decoded.components(separatedBy: "<signatureInfo>")
        #expect(parts.count == 3 && parts[0].isEmpty)
        #expect(parts[2] == token.bodyXML())
        let signature = try #require(Data(base64Encoded: parts[1]))
        #expect(signature.count == 256)
        #expect(
            Self.key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: Data(parts[2].utf8), padding: .insecurePKCS1v1_5))
        let envelope = try MediaTokenEnvelope(serialized: serialized)
        #expect(envelope.token == token)
        #expect(envelope.signature == signature)
        #expect(envelope.body == Data(parts[2].utf8))
        #expect(envelope.isSigned(by: Self.key.publicKey))
        #expect(!envelope.isSigned(by: try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey))
    }

    @Test func prettyPrintedBodyInAnyOrderParses() throws {
        let body = """
            <shortAuthorizationToken>
                <ttl>1</ttl>
                <sessionGUID>g</sessionGUID>
                <requestorID>R</requestorID>
                <resourceID>r</resourceID>
                <issueTime>2</issueTime>
                <mvpdId>m</mvpdId>
                <proxyMvpdId>p</proxyMvpdId>
            </shortAuthorizationToken>
            """
        let parsed = try MediaTokenScanner.parse(Array(body.utf8))
        #expect(
            parsed
                == ShortMediaToken(
                    sessionGUID: "g", requestorID: "R", resourceID: "r", ttl: 1, issueTime: 2,
                    mvpdID: "m", proxyMvpdID: "p"))
    }

    static let badBodies: [(String, MediaTokenFormatError.Code)] = {
        let good =
            "<sessionGUID>g</sessionGUID><requestorID>R</requestorID><resourceID>r</resourceID><ttl>1</ttl>"
            + "<issueTime>2</issueTime><mvpdId>m</mvpdId><proxyMvpdId>p</proxyMvpdId>"
        func wrap(_ inner: String) -> String { "<shortAuthorizationToken>\(inner)</shortAuthorizationToken>" }
        return [
            (wrap(good + "<ttl>3</ttl>"), .duplicateElement),
            (wrap(good.replacingOccurrences(of: "<mvpdId>m</mvpdId>", with: "")), .missingElement),
            (wrap(good + "<extra>x</extra>"), .unknownElement),
            (wrap(good.replacingOccurrences(of: "<ttl>1</ttl>", with: "<ttl>-1</ttl>")), .invalidNumber),
            (wrap(good.replacingOccurrences(of: "<ttl>1</ttl>", with: "<ttl>1234567890123456789</ttl>")), .invalidNumber),
            (wrap(good.replacingOccurrences(of: "<ttl>1</ttl>", with: "<ttl></ttl>")), .invalidNumber),
            (wrap(good.replacingOccurrences(of: "<ttl>1</ttl>", with: "<ttl> 1</ttl>")), .invalidNumber),
            (wrap(good.replacingOccurrences(of: ">g<", with: ">a&b<")), .invalidText),
            (wrap(good.replacingOccurrences(of: ">g<", with: ">&nbsp;<")), .invalidText),
            (wrap(good.replacingOccurrences(of: ">g<", with: ">&#0;<")), .invalidText),
            (wrap(good.replacingOccurrences(of: ">g<", with: ">&#xD800;<")), .invalidText),
            (wrap(good.replacingOccurrences(of: ">g<", with: ">\u{1}<")), .invalidText),
            (wrap(good.replacingOccurrences(of: ">g<", with: "><![CDATA[x]]><")), .malformedBody),
            (wrap(good.replacingOccurrences(of: "<sessionGUID>g</sessionGUID>", with: "<sessionGUID a=\"1\">g</sessionGUID>")), .malformedBody),
            (wrap(good.replacingOccurrences(of: "</sessionGUID>", with: "</requestorID>")), .malformedBody),
            (wrap(good) + " ", .malformedBody),
            (" " + wrap(good), .malformedBody),
            ("<shortAuthorizationToken>" + good, .malformedBody),
            ("<simpleAuthorizationToken>" + good + "</simpleAuthorizationToken>", .malformedBody),
            ("", .malformedBody),
        ]
    }()

    @Test(arguments: badBodies) func badBodiesHaveSpecificErrors(body: String, code: MediaTokenFormatError.Code) {
        let error = #expect(throws: MediaTokenFormatError.self) { try MediaTokenScanner.parse(Array(body.utf8)) }
        #expect(error?.code == code)
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array(token.bodyXML().utf8)
        let index = bytes.firstIndex(of: UInt8(ascii: "4"))!
        bytes[index] = 0xC3  // lone lead byte
        let error = #expect(throws: MediaTokenFormatError.self) { try MediaTokenScanner.parse(bytes) }
        #expect(error?.code == .invalidText)
    }

    @Test func envelopeErrors() {
        func code(_ serialized: String, maximumLength: Int = MediaTokenEnvelope.defaultMaximumLength) -> MediaTokenFormatError.Code? {
            do {
                _ = try MediaTokenEnvelope(serialized: serialized, maximumLength: maximumLength)
                return nil
            } catch let error as MediaTokenFormatError {
                return error.code
            } catch {
                return nil
            }
        }
        func b64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        #expect(code("%%%") == .notBase64)
        #expect(code(b64("<signatureInfo>") + "A") == .notBase64)
        #expect(code(b64("<signature>AAAA<signatureInfo>" + token.bodyXML())) == .missingSignatureInfo)
        #expect(code(b64("<signatureInfo>AAAA" + token.bodyXML())) == .missingSignatureInfo)
        #expect(code(b64("<signatureInfo>A*AA<signatureInfo>" + token.bodyXML())) == .notBase64)
        #expect(code(b64("<signatureInfo><signatureInfo>" + token.bodyXML())) == .notBase64)
        #expect(code(b64("<signatureInfo>AAAA<signatureInfo>\n" + token.bodyXML())) == .malformedBody)
        #expect(code(String(repeating: "A", count: 100), maximumLength: 99) == .tooLong)
        #expect(code(b64("<signatureInfo>AAAA<signatureInfo>" + token.bodyXML())) == nil)
    }

    @Test func signerRefusesValuesItCannotWrite() {
        let signer = MediaTokenSigner(privateKey: Self.key)
        var negative = token
        negative.ttl = -1
        var control = token
        control.sessionGUID = "a\u{0}b"
        var huge = token
        huge.issueTime = .max
        var noncharacter = token
        noncharacter.resourceID = "news\u{FFFE}"
        for bad in [negative, control, huge, noncharacter] {
            let error = #expect(throws: MediaTokenFormatError.self) { try signer.serialize(bad) }
            #expect(error?.code == .invalidValue)
        }
    }

    @Test func signerWritesEveryCharacterXMLAllows() throws {
        let signer = MediaTokenSigner(privateKey: Self.key)
        var allowed = token
        allowed.resourceID = "séries\t\n\r\u{7F}😀 <b>&"
        _ = try signer.serialize(allowed)
    }
}
