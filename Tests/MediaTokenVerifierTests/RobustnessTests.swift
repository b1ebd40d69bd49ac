import _CryptoExtras
import EntitleCore
import Foundation
@testable import MediaTokenVerifier
import Testing

/// Property tests: no generated or mutated input crashes the verifier or is accepted, except the genuine token.
@Suite struct RobustnessTests {
    let verifier = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey))
    let now = Fixtures.issue.addingTimeInterval(1)

    @Test func everySingleByteChangeOfTheBodyIsRefused() throws {
        let genuine = Fixtures.serialized(Fixtures.token(resource: ResourceMatcherTests.mrss(channel: "movies", guid: "m-1", rating: "TV-MA")))
        let envelope = try MediaTokenEnvelope(serialized: genuine)
        #expect(verifier.check(genuine, requestor: nil, resource: nil, now: now).isValid)
        let body = Array(envelope.body)
        var checked = 0
        for position in body.indices {
            for mask: UInt8 in [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80] {
                var mutated = body
                mutated[position] ^= mask
                let result = verifier.check(
                    Fixtures.assemble(signature: envelope.signature, body: mutated),
                    requestor: nil, resource: nil, now: now)
                #expect(!result.isValid, "byte \(position) ^ \(mask)")
                #expect(result.status == .invalidFormat || result.status == .invalidSignature)
                checked += 1
            }
        }
        #expect(checked == body.count * 8)
    }

    @Test func everySingleByteChangeOfTheSignatureIsRefused() throws {
        let genuine = Fixtures.serialized()
        let envelope = try MediaTokenEnvelope(serialized: genuine)
        let signature = Array(envelope.signature)
        for position in signature.indices {
            var mutated = signature
            mutated[position] ^= UInt8(1 << (position % 8))
            let result = verifier.check(
                Fixtures.assemble(signature: Data(mutated), body: Array(envelope.body)),
                requestor: nil, resource: nil, now: now)
            #expect(result.status == .invalidSignature, "signature byte \(position)")
        }
    }

    /// Over 20,000 inputs: random text, random bytes, mutated decoded tokens, mutated Base64, structural variants.
    @Test func fuzzedInputsNeverCrashAndNeverVerify() throws {
        var rng = SeededGenerator(seed: 0xE17_171E)
        let genuine = Fixtures.serialized()
        let decoded = Array(Data(base64Encoded: genuine)!)
        let envelope = try MediaTokenEnvelope(serialized: genuine)
        let body = Array(envelope.body)
        var inputs = 0
        var statuses: [VerificationStatus: Int] = [:]
        func run(_ input: String) {
            let result = verifier.check(input, requestor: "REF", resource: "news", now: now)
            statuses[result.status, default: 0] += 1
            inputs += 1
            if result.isValid {
                // Only a re-encoding of the genuine body may verify.
                #expect(Array(try! MediaTokenEnvelope(serialized: input).body) == body, "accepted a changed token: \(input)")
            }
        }
        func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=<>&;# \n".utf8)

        for _ in 0..<3000 {  // random Base64 text and random printable text
            run(Data(randomBytes(Int.random(in: 0...600, using: &rng))).base64EncodedString())
            run(String(decoding: (0..<Int.random(in: 0...400, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }, as: UTF8.self))
        }
        for _ in 0..<6000 {  // mutations of the decoded token: flips, inserts, deletes, truncations, duplications
            var bytes = decoded
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: i)
                case 2: bytes.remove(at: i)
                case 3: bytes = Array(bytes[0..<i])
                default:
                    let j = min(bytes.count, i + Int.random(in: 1...60, using: &rng))
                    bytes.insert(contentsOf: bytes[i..<j], at: j)
                }
                if bytes.isEmpty { bytes = [0x3C] }
            }
            run(Data(bytes).base64EncodedString())
        }
        for _ in 0..<6000 {  // mutations of the Base64 text itself
            var text = Array(genuine.utf8)
            let i = Int.random(in: 0..<text.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: text[i] = alphabet.randomElement(using: &rng)!
            case 1: text = Array(text[0..<i])
            default: text.insert(alphabet.randomElement(using: &rng)!, at: i)
            }
            run(String(decoding: text, as: UTF8.self))
        }
        let fields = ["sessionGUID", "requestorID", "resourceID", "ttl", "issueTime", "mvpdId", "proxyMvpdId"]
        let values = [
            "", "REF", "news", "0", "-1", "99999999999999999999", "1894694400000", "&amp;", "&bogus;", "&#0;",
            "&#x1F600;", "<x>", "]]>", "\u{1}", "é", String(repeating: "a", count: 5000),
        ]
        for _ in 0..<3000 {  // structurally generated bodies, signed by nobody (signature reused from the genuine token)
            var xml = "<shortAuthorizationToken>"
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                let name = Bool.random(using: &rng) ? fields.randomElement(using: &rng)! : ["x", "", "ttl ", "TTL"].randomElement(using: &rng)!
                let close = Int.random(in: 0..<10, using: &rng) == 0 ? "other" : name
                xml += "<\(name)>\(values.randomElement(using: &rng)!)</\(close)>"
                if Bool.random(using: &rng) { xml += [" ", "\n", "\t", "x", "<!-- c -->"].randomElement(using: &rng)! }
            }
            if Int.random(in: 0..<4, using: &rng) > 0 { xml += "</shortAuthorizationToken>" }
            run(Fixtures.assemble(signature: envelope.signature, body: Array(xml.utf8)))
        }
        for size in [16_385, 100_000, 4_000_000] {  // oversized inputs are refused before decoding
            let huge = String(repeating: "A", count: size)
            let result = verifier.check(huge, requestor: "REF", resource: "news", now: now)
            #expect(result.status == .invalidFormat)
            #expect(result.detail.hasPrefix("tooLong"))
            inputs += 1
        }
        #expect(inputs > 20_000)
        #expect(statuses[.valid, default: 0] < 50)  // only harmless re-encodings (e.g. whitespace) can verify
        #expect(statuses[.invalidFormat, default: 0] > 10_000)
        #expect(statuses[.invalidSignature, default: 0] > 0)
    }

    @Test func duplicatedElementsAreInvalidFormatEvenWhenSigned() throws {
        // The service would never sign this, but a verifier must refuse it as malformed, not pick one value.
        let body =
            "<shortAuthorizationToken><sessionGUID>g</sessionGUID><requestorID>REF</requestorID>"
            + "<resourceID>news</resourceID><resourceID>movies</resourceID><ttl>420000</ttl><issueTime>1894694400000</issueTime>"
            + "<mvpdId>DemoCable</mvpdId><proxyMvpdId></proxyMvpdId></shortAuthorizationToken>"
        let signature = try Fixtures.currentKey.signature(for: Data(body.utf8), padding: .insecurePKCS1v1_5)
        let token = Fixtures.assemble(signature: signature.rawRepresentation, body: Array(body.utf8))
        let result = verifier.check(token, requestor: "REF", resource: "news", now: now)
        #expect(result.status == .invalidFormat)
        #expect(result.detail.hasPrefix("duplicateElement"))
    }

    /// Mutated MRSS resources: matching never crashes, a resource always matches itself, and a mutation that
    /// changes the channel title never matches the original item-level token resource.
    @Test func fuzzedResourcesNeverCrashTheMatcher() {
        var rng = SeededGenerator(seed: 0x5EED)
        let original = ResourceMatcherTests.mrss(channel: "movies", itemTitle: "Heat", guid: "m-1", rating: "TV-MA")
        let pieces = [
            "<", ">", "/", "&amp;", "&", "<!DOCTYPE x>", "<item>", "</item>", "<title>", "</title>", "news", "\"", " ",
            "<media:rating scheme=\"urn:v-chip\">TV-G</media:rating>", "<guid>m-2</guid>", "]]>", "\u{0}", "é",
        ]
        var matched = 0
        for _ in 0..<3000 {
            var text = Array(original)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 0...text.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: text.insert(contentsOf: pieces.randomElement(using: &rng)!, at: i)
                case 1: if i < text.count { text.remove(at: i) }
                default: text = Array(text[0..<i])
                }
            }
            let mutated = String(text)
            #expect(ResourceMatcher.matches(token: mutated, request: mutated))
            if ResourceMatcher.matches(token: original, request: mutated) {
                matched += 1
                #expect((try? ProtectedResource(parsing: mutated))?.channel == "movies", "\(mutated)")
            }
        }
        #expect(matched < 3000)
    }
}
