import EntitleCore
import Foundation
import MediaTokenVerifier
import Testing

/// The published test vector (`Fixtures/media-token-vector.json`, made by `Tests/Support/make-verifier-vector.py` from the
/// documented format, independently of the Swift signer): a fixed token, key bundle, resource and time, and the verdict
/// each case must get. `scripts/verify-vector-python.sh` runs the Python example against the same vector.
@Suite struct TestVectorTests {
    struct Vector: Decodable {
        struct Case: Decodable {
            let token: String?
            let requestor: String
            let resource: String
            let now: String
            let expected: String
        }
        let keys: String
        let token: String
        let cases: [Case]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func everyCaseOfTheVectorGetsItsVerdict() throws {
        let vector = try JSONDecoder().decode(Vector.self, from: Data(contentsOf: Self.folder.appendingPathComponent("media-token-vector.json")))
        let keys = try VerificationKeySet(contentsOfFile: Self.folder.appendingPathComponent(vector.keys).path)
        #expect(keys.allKeys.count == 2)
        let verifier = MediaTokenVerifier(keys: keys)
        #expect(vector.cases.count >= 7)
        for item in vector.cases {
            let now = try Date(item.now, strategy: .iso8601)
            let result = verifier.check(item.token ?? vector.token, requestor: item.requestor, resource: item.resource, now: now)
            #expect(result.status.rawValue == item.expected, "\(item.expected) at \(item.now): \(result.status) (\(result.detail))")
        }
        let valid = verifier.check(vector.token, requestor: "REF", resource: "news", now: try Date("2030-01-15T08:03:00Z", strategy: .iso8601))
        #expect(valid.sessionGUID == "7f1c0e2a9b3d4c5e8f6a1b2c3d4e5f60")
        #expect(valid.token?.mvpdID == "DemoCable")
        #expect(valid.token?.ttl == 420_000)
    }
}
