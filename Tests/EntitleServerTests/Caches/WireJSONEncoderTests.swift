import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The router's ``WireJSONEncoder`` on a small `Router` of the service's context: a ``ResponseEncodable`` answer has the
/// bytes ``JSONCoding`` always wrote (sorted keys, slashes unescaped) and the v2 headers, with the status an
/// `EditedResponse` gives; on a child group (``CallerContext``) as on the root.
@Suite struct WireJSONEncoderTests {
    static let registration = ClientRegistration(
        clientID: "c1", clientSecret: "s/1", redirectURIs: ["adobepass://ios.app/cb"], clientIDIssuedAt: 1_800_000_000)

    @Test func encodableAnswersAreTheWiresJSON() async throws {
        let router = Router(context: AppContext.self)
        router.get("/plain") { _, _ in Self.registration }
        router.post("/created") { _, _ in EditedResponse(status: .created, response: Self.registration) }
        router.get("/map") { _, _ in ["status": "ok", "a": "b/c"] as [String: String] }
        try await Application(router: router).test(.router) { client in
            let plain = try await client.execute(uri: "/plain", method: .get)
            #expect(plain.status == .ok)
            #expect(plain.headers[.contentType] == "application/json")
            #expect(plain.headers[.cacheControl] == "no-store")
            #expect(String(buffer: plain.body) == String(decoding: JSONCoding.encode(Self.registration), as: UTF8.self))
            #expect(String(buffer: plain.body).contains(#""redirect_uris":["adobepass://ios.app/cb"]"#), "slashes unescaped")

            let created = try await client.execute(uri: "/created", method: .post)
            #expect(created.status == .created)
            #expect(created.headers[.contentType] == "application/json" && created.headers[.cacheControl] == "no-store")
            #expect(created.body == plain.body)

            let map = try await client.execute(uri: "/map", method: .get)
            #expect(String(buffer: map.body) == #"{"a":"b/c","status":"ok"}"#, "sorted keys")
        }
    }
}
