import Foundation
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// The Promotional TempPass key of an `AP-TempPass-Identity` (values of any JSON type, as the SDK forwards `withData:`).
@Suite struct TempPassIdentityKeyTests {
    static func header(_ json: String) -> String { Data(json.utf8).base64EncodedString() }

    @Test func stringIdentitiesKeepTheirKeysAndOtherValuesAreTakenAsJSON() throws {
        func key(_ json: String) throws -> String { try TempPassService.tempPassIdentityKey(Self.header(json), requestor: "REF", mvpd: "P") }
        // A string identity's key is what it always was: SHA-256 of requestor|mvpd|name=value.
        #expect(try key(#"{"email":"abc"}"#) == Secrets.sha256Hex("REF|P|email=abc"))
        // Key order does not matter; a number is not the string of its digits; nested values count.
        #expect(try key(#"{"plan":2,"email":"abc"}"#) == key(#"{"email":"abc","plan":2}"#))
        #expect(try key(#"{"email":"abc","plan":2}"#) != key(#"{"email":"abc","plan":"2"}"#))
        #expect(try key(#"{"email":"abc","opt":true}"#) != key(#"{"email":"abc","opt":false}"#))
        #expect(try key(#"{"email":"abc","tags":{"b":1,"a":[1,"x"]}}"#) == key(#"{"tags":{"a":[1,"x"],"b":1},"email":"abc"}"#))
    }

    @Test func malformedIdentitiesAreRefusedClearly() {
        for bad in [nil, "not base64!", Self.header("[]"), Self.header("{}"), Self.header("\"x\""), String(repeating: "A", count: 5000)] {
            #expect(throws: (any Error).self) { try TempPassService.tempPassIdentityKey(bad, requestor: "REF", mvpd: "P") }
        }
    }
}
