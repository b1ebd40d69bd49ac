import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHost
import EntitleModel
import EntitleTesting
import Foundation
import Hummingbird
import NIOCore
import Testing
import TestLogCapture

/// Single sign-on by service token and by platform identity over REST API v2, as Adobe documents the flows: a sign-in
/// made with a valid token is found by another app on another device presenting a token of the same identity, which gets
/// media tokens without a login; anything else about the token finds nothing and never a 5xx. On SQLite, and on
/// PostgreSQL with `ENTITLE_TEST_DATABASE_URL`.
@Suite struct TokenSSOFlowTests {
    static let serviceIssuer = "https://id.mynet.example"

    /// Registers a service-token issuer for REF with `issuer`'s key.
    static func registerServiceToken(_ host: LocalService, _ issuer: SSOTestIssuer, audience: String? = nil) async throws {
        try await host.service.ssoIssuers.add(
            .init(
                id: "mynet", type: "service-token", issuer: serviceIssuer, publicKeys: [issuer.publicKeyPEM], audience: audience, requestors: ["REF"]),
            actor: "test")
    }

    /// Creates a session for DemoCable with `headers` and signs `user` in through the browser leg.
    static func signIn(
        _ host: LocalService, _ client: RESTClient, headers: [(String, String)], user: String = "alice", mvpd: String = "DemoCable"
    ) async throws {
        let start = try await client.send(
            .POST, "/api/v2/\(client.serviceProvider)/sessions", form: [("mvpd", mvpd), ("redirectUrl", "adobepass://ios.app")], headers: headers)
        #expect(start.status == 200, "\(start.text)")
        let session = try start.decode(SessionResponse.self)
        let url = try #require(session.url)
        _ = try await DemoSignIn.signIn(browser: host.browser(), authenticationURL: host.baseURL + url, username: user, password: user + "-pass")
        let done = try await client.send(.GET, "/api/v2/\(client.serviceProvider)/profiles/code/\(try #require(session.code))", headers: headers)
        #expect(done.status == 200, "\(done.text)")
        #expect(try done.decode(ProfilesResponse.self).profiles[mvpd]?.type == .regular)
    }

    static func profiles(_ client: RESTClient, headers: [(String, String)] = []) async throws -> [String: Profile] {
        let answer = try await client.send(.GET, "/api/v2/\(client.serviceProvider)/profiles", headers: headers)
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decode(ProfilesResponse.self).profiles
    }

    static func authorize(
        _ client: RESTClient, _ resource: String, headers: [(String, String)] = [], mvpd: String = "DemoCable"
    ) async throws -> RESTClient.Answer {
        try await client.send(
            .POST, "/api/v2/\(client.serviceProvider)/decisions/authorize/\(mvpd)",
            json: JSONEncoder().encode(DecisionsRequest(resources: [resource])),
            headers: headers)
    }

    /// `text` with the character at `index` replaced by another Base64url character.
    static func flipped(_ text: String, at index: Int) -> String {
        var characters = Array(text)
        characters[index] = characters[index] == "A" ? "B" : "A"
        return String(characters)
    }

    @Test func aSecondAppOnASecondDeviceWithTheSameServiceTokenGetsAMediaTokenWithoutALogin() async throws {
        try await LocalService.run { host in
            let issuer = try SSOTestIssuer.rsa()
            try await Self.registerServiceToken(host, issuer)
            let header = [
                (
                    "AD-Service-Token",
                    try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: host.clock.nowMilliseconds()))
                )
            ]

            // The first app signs in at the MVPD while its session request carries the service token.
            let phone = try await host.client(device: "phone-" + UUID().uuidString)
            try await Self.signIn(host, phone, headers: header)

            // Another app (another DCR client) on another device: nothing without the token.
            let tv = try await host.client(device: "tv-" + UUID().uuidString)
            #expect(try await Self.profiles(tv).isEmpty)
            let refused = try await Self.authorize(tv, "news")
            #expect(refused.status == 403 && (try? refused.decode(EnhancedError.self).code) == "authenticated_profile_missing", "\(refused.text)")

            // With a token of the same identity (made later, another jti): the profile, a session that skips the login,
            // decisions and a media token.
            host.clock.advance(by: 5)
            let tvHeader = [
                (
                    "AD-Service-Token",
                    try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: host.clock.nowMilliseconds()))
                )
            ]
            let found = try await Self.profiles(tv, headers: tvHeader)
            let profile = try #require(found["DemoCable"])
            #expect(profile.type == .serviceTokenSSO)
            #expect(profile.attributes["householdID"]?.value == .string("H-1001"))
            let one = try await tv.send(.GET, "/api/v2/REF/profiles/DemoCable", headers: tvHeader).decode(ProfilesResponse.self)
            #expect(one.profiles["DemoCable"]?.type == .serviceTokenSSO)
            let session = try await tv.send(
                .POST, "/api/v2/REF/sessions", form: [("mvpd", "DemoCable"), ("redirectUrl", "adobepass://ios.app")], headers: tvHeader
            ).decode(SessionResponse.self)
            #expect(session.actionName == .authorize && session.reasonType == .authenticatedSSO)
            let permit = try await Self.authorize(tv, "news", headers: tvHeader)
            #expect(permit.status == 200, "\(permit.text)")
            let decision = try #require(try permit.decode(DecisionsResponse.self).decisions.first)
            #expect(decision.authorized)
            #expect(decision.token?.serializedToken.isEmpty == false)
            let denied = try await Self.authorize(tv, "nope-channel", headers: tvHeader).decode(DecisionsResponse.self).decisions[0]
            #expect(!denied.authorized)

            // Logout with the token ends the identity's sign-in for every other app; the first device keeps its own.
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable", headers: tvHeader)
            #expect(logout.status == 200, "\(logout.text)")
            #expect(try logout.decode(LogoutsResponse.self).logouts["DemoCable"]?.actionName == .complete)
            let third = try await host.client(device: "stick-" + UUID().uuidString)
            #expect(try await Self.profiles(third, headers: tvHeader).isEmpty)
            #expect(try await Self.profiles(tv, headers: tvHeader).isEmpty)
            #expect(try await Self.profiles(phone)["DemoCable"]?.type == .regular)
        }
    }

    @Test func rokuAndFireTVPlatformTokensShareASignInAsPlatformSSO() async throws {
        let amazon = try SSOTestIssuer.rsa(kid: "fire-key-1")
        let router = Router()
        router.get("jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: amazon.jwks)))
        }
        try await withLoopbackServer(router) { jwksBase in
            try await LocalService.run { host in
                let roku = SSOTestIssuer.p256()
                try await host.service.ssoIssuers.add(
                    .init(id: "roku", type: "roku", issuer: "roku.com", publicKeys: [roku.publicKeyPEM], requestors: ["REF"]), actor: "test")
                try await host.service.ssoIssuers.add(
                    .init(
                        id: "fire", type: "amazon", issuer: "amazon.com", jwksURL: jwksBase + "/jwks.json", audience: "entitle", requestors: ["REF"]),
                    actor: "test")
                let now = host.clock.nowMilliseconds()

                // Roku (ES256, no audience check): the device's platform identity.
                let rokuHeader = [
                    (
                        "X-Roku-Reserved-Roku-Connect-Token",
                        try roku.token(SSOTestIssuer.claims(iss: "roku.com", sub: "roku-device-7", aud: nil, now: now))
                    )
                ]
                let first = try await host.client(device: "roku-app-a-" + UUID().uuidString)
                try await Self.signIn(host, first, headers: rokuHeader)
                let second = try await host.client(device: "roku-app-b-" + UUID().uuidString)
                #expect(try await Self.profiles(second, headers: rokuHeader)["DemoCable"]?.type == .platformSSO)
                #expect(try await Self.authorize(second, "sports", headers: rokuHeader).decode(DecisionsResponse.self).decisions[0].authorized)

                // Fire TV (RS256, key from the issuer's JWKS by kid, audience "entitle").
                let fireHeader = [
                    (
                        "Adobe-Subject-Token",
                        try amazon.token(SSOTestIssuer.claims(iss: "amazon.com", sub: "amzn1.account.X", aud: "entitle", now: now))
                    )
                ]
                let fireA = try await host.client(device: "fire-a-" + UUID().uuidString)
                try await Self.signIn(host, fireA, headers: fireHeader, user: "bob")
                let fireB = try await host.client(device: "fire-b-" + UUID().uuidString)
                #expect(try await Self.profiles(fireB, headers: fireHeader)["DemoCable"]?.type == .platformSSO)
                #expect(try await Self.authorize(fireB, "news", headers: fireHeader).decode(DecisionsResponse.self).decisions[0].authorized)
                let other = try await host.client(device: "fire-c-" + UUID().uuidString)
                let fireOther = [
                    (
                        "Adobe-Subject-Token",
                        try amazon.token(SSOTestIssuer.claims(iss: "amazon.com", sub: "amzn1.account.Y", aud: "entitle", now: now))
                    )
                ]
                #expect(try await Self.profiles(other, headers: fireOther).isEmpty)
                // A Roku token in Fire TV's header is not a Fire TV token.
                #expect(try await Self.profiles(other, headers: [("Adobe-Subject-Token", rokuHeader[0].1)]).isEmpty)
            }
        }
    }

    @Test func foreignExpiredWrongAudienceWrongSubjectAndTamperedTokensFindNothing() async throws {
        try await LocalService.run { host in
            let issuer = try SSOTestIssuer.rsa()
            try await Self.registerServiceToken(host, issuer)
            let now = host.clock.nowMilliseconds()
            let good = try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now))
            let phone = try await host.client(device: "phone-" + UUID().uuidString)
            try await Self.signIn(host, phone, headers: [("AD-Service-Token", good)])

            let stranger = try SSOTestIssuer.rsa()
            let parts = good.split(separator: ".").map(String.init)
            var tamperedClaims = SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now)
            tamperedClaims["exp"] = now / 1000 + 86_400 * 365
            let tamperedPayload = try JSONSerialization.data(withJSONObject: tamperedClaims, options: .sortedKeys).base64URLEncodedString()
            let cases: [(String, String)] = [
                ("foreign key", try stranger.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now))),
                ("unknown issuer", try issuer.token(SSOTestIssuer.claims(iss: "https://other.example", sub: "viewer-42", now: now))),
                ("expired", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now - 7_200_000))),
                (
                    "not yet valid",
                    try issuer.token(
                        SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now).merging(["nbf": now / 1000 + 600]) { $1 })
                ),
                ("no exp", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now).filter { $0.key != "exp" })),
                ("wrong audience", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", aud: "someone-else", now: now))),
                ("no audience", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", aud: nil, now: now))),
                ("wrong subject", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-43", now: now))),
                ("tampered payload", parts[0] + "." + tamperedPayload + "." + parts[2]),
                // A character in the middle (the last one carries unused bits: changing it may not change the signature).
                ("bit-flipped signature", parts[0] + "." + parts[1] + "." + Self.flipped(parts[2], at: 100)),
                ("alg none", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now), header: ["alg": "none"])),
                ("HS256", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now), header: ["alg": "HS256"])),
                ("JWE", "eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a2V5.aXY.Y2lwaGVy.dGFn"),
                ("garbage", "not a token"),
                ("oversized", String(repeating: "a", count: 20_000)),
            ]
            let tv = try await host.client(device: "tv-" + UUID().uuidString)
            for (name, token) in cases {
                let header = [("AD-Service-Token", token)]
                let profiles = try await tv.send(.GET, "/api/v2/REF/profiles", headers: header)
                #expect(profiles.status == 200, "\(name): \(profiles.text)")
                #expect((try? profiles.decode(ProfilesResponse.self).profiles.isEmpty) == true, "\(name): \(profiles.text)")
                let one = try await tv.send(.GET, "/api/v2/REF/profiles/DemoCable", headers: header)
                #expect(one.status == 200 && (try? one.decode(ProfilesResponse.self).profiles.isEmpty) == true, "\(name): \(one.text)")
                let decision = try await Self.authorize(tv, "news", headers: header)
                #expect(decision.status == 403, "\(name): \(decision.text)")
                #expect((try? decision.decode(EnhancedError.self).code) == "authenticated_profile_missing", "\(name)")
                let session = try await tv.send(
                    .POST, "/api/v2/REF/sessions", form: [("mvpd", "DemoCable"), ("redirectUrl", "adobepass://ios.app")], headers: header)
                #expect(session.status == 200 && (try? session.decode(SessionResponse.self).actionName) == .authenticate, "\(name): \(session.text)")
                let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable", headers: header)
                #expect(logout.status == 200, "\(name): \(logout.text)")
            }
            // None of them ended the identity's sign-in; the genuine token still finds it, from any device.
            #expect(try await Self.profiles(tv, headers: [("AD-Service-Token", good)])["DemoCable"]?.type == .serviceTokenSSO)

            // The same token in a platform header, or for a requestor the issuer does not list, finds nothing.
            #expect(try await Self.profiles(tv, headers: [("Adobe-Subject-Token", good)]).isEmpty)
            #expect(try await Self.profiles(tv, headers: [("X-Roku-Reserved-Roku-Connect-Token", good)]).isEmpty)
            try await host.service.repository.sso.saveIssuer(
                SSOIssuerRecord(
                    id: "mynet", type: .serviceToken, issuer: Self.serviceIssuer, audience: nil, publicKeys: [issuer.publicKeyPEM], jwksURL: nil,
                    requestors: ["OTHER"], createdAt: 0, updatedAt: 0))
            #expect(try await Self.profiles(tv, headers: [("AD-Service-Token", good)]).isEmpty)
        }
    }

    /// Another requestor listed for the issuer, whose integration with the MVPD is enabled, shares the sign-in; for an
    /// OAuth 2.0 MVPD (DemoStream) its decisions use the first device's grant. Disabling the integration ends it.
    @Test(arguments: [("DemoCable", "alice", "news"), ("DemoStream", "erin", "news")])
    func anotherRequestorListedForTheIssuerSharesTheSignIn(mvpd: String, user: String, resource: String) async throws {
        try await LocalService.run { host in
            let other = try await IntegrationProfileTTLTests.otherRequestor(host, mvpd: mvpd)
            let issuer = try SSOTestIssuer.rsa()
            try await host.service.ssoIssuers.add(
                .init(
                    id: "mynet", type: "service-token", issuer: Self.serviceIssuer, publicKeys: [issuer.publicKeyPEM], requestors: ["REF", "OTHER"]),
                actor: "test")
            let header = [
                (
                    "AD-Service-Token",
                    try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "household-9", now: host.clock.nowMilliseconds()))
                )
            ]
            try await Self.signIn(host, try await host.client(device: "ref-" + UUID().uuidString), headers: header, user: user, mvpd: mvpd)

            let profile = try #require(try await Self.profiles(other, headers: header)[mvpd])
            #expect(profile.type == .serviceTokenSSO)
            let decision = try await Self.authorize(other, resource, headers: header, mvpd: mvpd)
            #expect(decision.status == 200, "\(decision.text)")
            #expect(try decision.decode(DecisionsResponse.self).decisions.first?.authorized == true, "\(decision.text)")

            try await host.service.integrations.setEnabled(requestor: "OTHER", mvpd: mvpd, enabled: false, actor: "test")
            #expect(try await Self.profiles(other, headers: header)[mvpd] == nil)
        }
    }

    /// A refused token is logged with the header and the reason, never the token; a valid one proves its identity.
    @Test func aRefusedTokenIsLoggedWithItsReasonAndNeverTheToken() async throws {
        try await LocalService.run { host in
            let issuer = try SSOTestIssuer.rsa()
            try await Self.registerServiceToken(host, issuer)
            let now = host.clock.nowMilliseconds()
            let capture = LogCapture()
            let expired = try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now - 7_200_000))
            let wrongAudience = try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", aud: "x", now: now))
            let sso = host.service.singleSignOn
            #expect(await sso.identities(.init(serviceToken: expired), requestor: "REF", logger: capture.logger()).isEmpty)
            #expect(await sso.identities(.init(subjectToken: wrongAudience), requestor: "REF", logger: capture.logger()).isEmpty)
            #expect(await sso.identities(.init(serviceToken: wrongAudience), requestor: "REF", logger: capture.logger()).isEmpty)
            #expect(await sso.identities(.init(rokuToken: "a.b.c.d.e"), requestor: "REF", logger: capture.logger()).isEmpty)
            let lines = capture.all
            #expect(lines.count == 4, "\(lines)")
            #expect(lines[0].contains("header=AD-Service-Token") && lines[0].contains("reason=the token expired"), "\(lines[0])")
            #expect(lines[1].contains("header=Adobe-Subject-Token") && lines[1].contains("no amazon issuer is registered"), "\(lines[1])")
            #expect(lines[2].contains("reason=the token's audience is not adobe"), "\(lines[2])")
            #expect(lines[3].contains("encrypted (JWE)"), "\(lines[3])")
            for (line, token) in zip(lines, [expired, wrongAudience, wrongAudience]) {
                #expect(!line.contains(token) && !line.contains(String(token.split(separator: ".")[1])))
            }
            let valid = try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "viewer-42", now: now))
            let identity = try #require(await sso.identities(.init(serviceToken: valid), requestor: "REF", logger: capture.logger()).first)
            #expect(identity.issuerID == "mynet" && identity.profileType == .serviceTokenSSO && identity.subjectHash != "viewer-42")
            #expect(capture.all.count == 4)
        }
    }

    @Test func removingTheIssuerEndsSharingAtOnce() async throws {
        try await LocalService.run { host in
            let issuer = SSOTestIssuer.p256()
            try await host.service.ssoIssuers.add(
                .init(id: "mynet", type: "service-token", issuer: Self.serviceIssuer, publicKeys: [issuer.publicKeyPEM], requestors: ["REF"]),
                actor: "test")
            let header = [
                ("AD-Service-Token", try issuer.token(SSOTestIssuer.claims(iss: Self.serviceIssuer, sub: "v", now: host.clock.nowMilliseconds())))
            ]
            try await Self.signIn(host, try await host.client(device: "a-" + UUID().uuidString), headers: header)
            let tv = try await host.client(device: "b-" + UUID().uuidString)
            #expect(try await Self.profiles(tv, headers: header)["DemoCable"]?.type == .serviceTokenSSO)
            try await host.service.ssoIssuers.remove(id: "mynet", actor: "test")
            #expect(try await Self.profiles(tv, headers: header).isEmpty)
            let changes = try await host.service.changes.recorded(since: 0).map(\.action)
            #expect(changes.contains("sso.add") && changes.contains("sso.remove"))
        }
    }
}
