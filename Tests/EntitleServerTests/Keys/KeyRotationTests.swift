import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// Key rotation with two instances on one database: a new key is published by every instance before any signs
/// with it, and every instance verifies with every key in the database.
@Suite struct KeyRotationTests {
    @Test func aRotatedKeyIsPublishedEverywhereBeforeAnyInstanceSignsWithIt() async throws {
        let clock = ManualClock()
        let bound = Duration.milliseconds(300)
        try await LocalService.runTwoInstances(clock: clock, catalogRefresh: bound) { first, second in
            let tv = try await first.client()
            // The browser leg goes through the second instance (the demo world seeded last answers logins).
            _ = try await second.signIn(tv, user: "alice")
            var viaSecond = RESTClient(httpClient: second.httpClient, baseURL: second.baseURL, serviceProvider: "REF", deviceID: tv.deviceID)
            viaSecond.accessToken = tv.accessToken
            func token(_ client: RESTClient) async throws -> String {
                let decision = try await client.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self)
                    .decisions[0]
                return try #require(decision.token?.serializedToken)
            }
            let media = KeyPurpose.mediaToken
            let old = try await first.service.keys.signingIdentity(purpose: media).certificatePEM
            _ = try await token(viaSecond)

            // Media-token key, rotated by the first instance: published by both, signing with neither yet.
            let rotated = try await first.service.keys.rotate(purpose: media)
            #expect(rotated.signsFrom == rotated.createdAt + ServiceKeys.promotionDelay(purpose: media))
            try await Task.sleep(for: bound + .milliseconds(100))
            for instance in [first, second] {
                let published = try await tv.send(.GET, instance.baseURL + "/keys/media-token", authorized: false).text
                #expect(published.contains(Self.body(of: rotated.certificatePem)))
                #expect(try await instance.service.keys.signingIdentity(purpose: media).certificatePEM == old)
            }
            let stillOld = MediaTokenVerifier(keys: try VerificationKeySet(pem: old))
            #expect(await stillOld.verify(try await token(tv), requestor: "REF", resource: "news", now: clock.now()).status == .valid)
            #expect(await stillOld.verify(try await token(viaSecond), requestor: "REF", resource: "news", now: clock.now()).status == .valid)

            // Promoted: both sign with the new key, which every published set already had.
            clock.advance(by: Double(ServiceKeys.promotionDelay(purpose: media)) / 1000 + 1)
            let onlyNew = MediaTokenVerifier(keys: try VerificationKeySet(pem: rotated.certificatePem))
            for client in [tv, viaSecond] {
                #expect(await onlyNew.verify(try await token(client), requestor: "REF", resource: "news", now: clock.now()).status == .valid)
            }

            // JWT key, rotated by the second instance: after promotion, access tokens of the first pass on the second.
            let jwt = try await second.service.keys.rotate(purpose: KeyPurpose.jwt)
            try await Task.sleep(for: bound + .milliseconds(100))
            clock.advance(by: Double(ServiceKeys.promotionDelay(purpose: KeyPurpose.jwt)) / 1000 + 1)
            let fresh = try await first.client()
            var freshViaSecond = RESTClient(httpClient: second.httpClient, baseURL: second.baseURL, serviceProvider: "REF", deviceID: fresh.deviceID)
            freshViaSecond.accessToken = fresh.accessToken
            #expect(try await first.service.keys.jwtKeys().activeKid == jwt.kid)
            #expect(try await freshViaSecond.send(.GET, "/api/v2/REF/configuration").status == 200)
            // Tokens signed before the rotation still pass on both.
            #expect(try await viaSecond.send(.GET, "/api/v2/REF/configuration").status == 200)
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
        }
    }

    static func body(of pem: String) -> String {
        pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined(separator: "\n")
    }
}
