import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import TestLogCapture
import Testing

@Suite("DemoMVPD authorization API")
struct AuthorizationAPITests {
    struct Case: Sendable, CustomTestStringConvertible {
        let user: String
        let mvpd: String
        let resource: String
        let reason: String?  // nil = authorized
        let message: String?
        var testDescription: String { "\(user)@\(mvpd) \(resource.prefix(40)) → \(reason ?? "authorized")" }
    }

    static func mrss(_ channel: String, rating: String? = nil, scheme: String = "urn:v-chip") -> String {
        let ratingXML = rating.map { "<media:rating scheme=\"\(scheme)\">\($0)</media:rating>" } ?? ""
        return """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>\(channel)</title>\
            <item><title>Episode</title><guid>ep-1</guid>\(ratingXML)</item></channel></rss>
            """
    }

    static let cases: [Case] = [
        Case(user: "alice", mvpd: "DemoCable", resource: "news", reason: nil, message: nil),
        Case(user: "alice", mvpd: "DemoCable", resource: "sports", reason: nil, message: nil),
        Case(user: "alice", mvpd: "DemoCable", resource: "movies", reason: nil, message: nil),
        Case(user: "bob", mvpd: "DemoCable", resource: "news", reason: nil, message: nil),
        Case(user: "bob", mvpd: "DemoCable", resource: "sports", reason: nil, message: nil),
        Case(
            user: "bob", mvpd: "DemoCable", resource: "movies", reason: "parental_controls",
            message: "Parental controls on this Demo Cable account do not allow TV-MA programs."),
        Case(user: "carol", mvpd: "DemoFiber", resource: "news", reason: nil, message: nil),
        Case(
            user: "carol", mvpd: "DemoFiber", resource: "sports", reason: "not_entitled",
            message: "Your Demo Fiber package does not include sports."),
        Case(
            user: "carol", mvpd: "DemoFiber", resource: "movies", reason: "parental_controls",
            message: "Parental controls on this Demo Fiber account do not allow TV-MA programs."),
        // MRSS with item ratings.
        Case(
            user: "bob", mvpd: "DemoCable", resource: mrss("sports", rating: "TV-14"), reason: "parental_controls",
            message: "Parental controls on this Demo Cable account do not allow TV-14 programs."),
        Case(user: "bob", mvpd: "DemoCable", resource: mrss("news", rating: "TV-Y7"), reason: nil, message: nil),
        Case(
            user: "bob", mvpd: "DemoCable", resource: mrss("movies", rating: "TV-G"), reason: "not_entitled",
            message: "Your Demo Cable package does not include movies."),
        Case(
            user: "carol", mvpd: "DemoFiber", resource: mrss("news", rating: "tv-ma"), reason: "parental_controls",
            message: "Parental controls on this Demo Fiber account do not allow TV-MA programs."),
        Case(
            user: "dave", mvpd: "DemoSSO", resource: mrss("movies", rating: "pg-13", scheme: "urn:mpaa"), reason: nil,
            message: nil),
        Case(
            user: "dave", mvpd: "DemoSSO", resource: mrss("movies", rating: "r", scheme: "urn:mpaa"),
            reason: "parental_controls", message: "Parental controls on this Demo SSO TV account do not allow R programs."),
        Case(
            user: "dave", mvpd: "DemoSSO", resource: mrss("movies"), reason: "parental_controls",
            message: "Parental controls on this Demo SSO TV account do not allow TV-MA programs."),
        Case(user: "alice", mvpd: "DemoCable", resource: mrss("Movies", rating: "TV-MA"), reason: nil, message: nil),
        // Unknown channel and unknown users.
        Case(
            user: "alice", mvpd: "DemoCable", resource: "cooking", reason: "not_entitled",
            message: "Your Demo Cable package does not include cooking."),
        Case(
            user: "alice", mvpd: "DemoFiber", resource: "news", reason: "unknown_user",
            message: "Demo Fiber has no subscriber with this user ID."),
    ]

    static func post(
        _ client: any TestClientProtocol, mvpd: String, body: String,
        authorization: String? = "Bearer \(Fixture.apiKey)"
    ) async throws -> (TestResponse, [String: Any]) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let authorization { headers[.authorization] = authorization }
        let response = try await client.executeRequest(
            uri: "/demo-mvpd/\(mvpd)/authorize", method: .post,
            headers: headers, body: ByteBuffer(string: body))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.text.utf8))) as? [String: Any] ?? [:]
        return (response, json)
    }

    static func body(userID: String, resource: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["userID": userID, "resource": resource])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("decisions for the demo subscribers", arguments: cases)
    func decision(_ testCase: Case) async throws {
        try await Fixture.application().test(.router) { client in
            let userID = Fixture.subscriber(testCase.user).userID
            let (response, json) = try await Self.post(
                client, mvpd: testCase.mvpd,
                body: Self.body(userID: userID, resource: testCase.resource))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            if let reason = testCase.reason {
                #expect(json["authorized"] as? Bool == false)
                #expect(json["reason"] as? String == reason)
                #expect(json["message"] as? String == testCase.message)
            } else {
                #expect(json["authorized"] as? Bool == true)
                #expect(json["reason"] == nil)
                #expect(json.count == 1)
            }
        }
    }

    @Test(
        "a missing or wrong bearer key is 401",
        arguments: [
            nil, "Bearer wrong", "Basic \(Fixture.apiKey)",
            "Bearer \(Fixture.apiKey)x", "bearer",
        ])
    func badKey(authorization: String?) async throws {
        try await Fixture.application().test(.router) { client in
            let (response, json) = try await Self.post(
                client, mvpd: "DemoCable",
                body: Self.body(userID: Fixture.subscriber("alice").userID, resource: "news"),
                authorization: authorization)
            #expect(response.status == .unauthorized)
            #expect(json["error"] as? String == "unauthorized")
            #expect(json["authorized"] == nil)
        }
    }

    @Test(
        "malformed JSON is 400 invalid_request",
        arguments: ["", "{", "[]", "{\"userID\": 5, \"resource\": \"news\"}", "{\"resource\": \"news\"}", "not json"])
    func malformedJSON(body: String) async throws {
        try await Fixture.application().test(.router) { client in
            let (response, json) = try await Self.post(client, mvpd: "DemoCable", body: body)
            #expect(response.status == .badRequest)
            #expect(json["error"] as? String == "invalid_request")
            #expect((json["message"] as? String)?.isEmpty == false)
        }
    }

    @Test(
        "malformed resources are 400 invalid_resource",
        arguments: [
            "", "   ", "<rss><channel><title>news</title></item></channel></rss>", "<rss><channel><title>news</title>",
            "<rss><channel></channel></rss>",
            "<feed><title>news</title></feed>", "news\n<b>",
            "<!DOCTYPE rss [<!ENTITY x \"news\">]><rss><channel><title>&x;</title></channel></rss>",
        ])
    func malformedResource(resource: String) async throws {
        try await Fixture.application().test(.router) { client in
            let (response, json) = try await Self.post(
                client, mvpd: "DemoCable",
                body: Self.body(userID: Fixture.subscriber("alice").userID, resource: resource))
            #expect(response.status == .badRequest)
            #expect(json["error"] as? String == "invalid_resource")
        }
    }

    @Test("oversized bodies are refused; unknown MVPDs are 404")
    func limits() async throws {
        try await Fixture.application().test(.router) { client in
            let huge = Self.body(userID: "x", resource: String(repeating: "a", count: 100_000))
            let (tooLarge, json) = try await Self.post(client, mvpd: "DemoCable", body: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(json["error"] as? String == "invalid_request")
            let (unknown, _) = try await Self.post(client, mvpd: "NoSuchTV", body: Self.body(userID: "x", resource: "news"))
            #expect(unknown.status == .notFound)
        }
    }
}

/// The DemoMVPD escapes the untrusted values it logs.
@Suite struct DemoMVPDLogEscapingTests {
    @Test func authorizationLogLinesCarryNoRawControlCharacters() async throws {
        let capture = LogCapture()
        let configuration = DemoMVPDConfiguration(
            baseURL: Fixture.baseURL, identity: Fixture.idpIdentity, trustedServiceProviders: [Fixture.serviceProvider()],
            authorizationAPIKey: Fixture.apiKey, clock: ManualClock(Fixture.now))
        let mvpd = DemoMVPD(configuration: configuration, logger: capture.logger(label: "t"))
        let router = Router()
        mvpd.addRoutes(to: router.group("demo-mvpd"))
        try await Application(router: router).test(.router) { client in
            let userID = "\u{1B}]0;pwned\u{7}\u{1B}[2J" + Fixture.subscriber("alice").userID
            let (response, _) = try await AuthorizationAPITests.post(
                client, mvpd: "DemoCable",
                body: AuthorizationAPITests.body(userID: userID, resource: "news"))
            #expect(response.status == .ok)
            let (refused, _) = try await AuthorizationAPITests.post(
                client, mvpd: "DemoCable",
                body: AuthorizationAPITests.body(userID: "u", resource: "news\u{1B}[2J"))
            #expect(refused.status == .badRequest)
        }
        let logged = capture.all
        #expect(logged.contains { $0.contains("authorization decision") && $0.contains("\\u{1B}]0;pwned") })
        for line in logged { #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)") }
    }
}
