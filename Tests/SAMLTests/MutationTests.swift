import Foundation
import Testing
@testable import SAML

/// Random single-character mutations of a signed Response: the validator must never crash and never return
/// anything but the original facts (a mutation can only be harmless, e.g. inside the unsigned KeyInfo, or rejected).
@Suite struct MutationTests {
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func singleCharacterMutationsNeverChangeTheResult() throws {
        let xml = try Fixture.responseXML()
        let original = try Fixture.validator().validate(xml: xml, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        var generator = SplitMix64(state: 20261122)
        let bytes = Array(xml.utf8)
        let replacements = Array("aZ0<>&\"'=/ _#:x\n".utf8)
        var rejected = 0
        for _ in 0..<400 {
            var mutated = bytes
            let index = Int.random(in: 0..<mutated.count, using: &generator)
            let replacement = replacements.randomElement(using: &generator)!
            guard mutated[index] != replacement else { continue }
            mutated[index] = replacement
            let text = String(decoding: mutated, as: UTF8.self)
            do {
                let result = try Fixture.validator().validate(xml: text, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
                #expect(result == original, "mutation at \(index) changed the result")
            } catch is SAMLError {
                rejected += 1
            }
        }
        #expect(rejected > 300)
    }
}
