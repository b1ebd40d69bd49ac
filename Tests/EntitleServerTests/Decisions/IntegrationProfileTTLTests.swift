import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// A per-integration profile lifetime (`entitle admin integration set --profile-ttl`) applies to every sign-in path —
/// SAML through the browser leg and OAuth 2.0 — and only to its own integration: another requestor's integration of the
/// same MVPD keeps the MVPD's lifetime. Over real sockets; SQLite here, PostgreSQL under `scripts/with-postgres.sh`.
@Suite struct IntegrationProfileTTLTests {
    /// The MVPDs a device is signed in to, as REST v2 `profiles` answers.
    static func signedIn(_ tv: RESTClient) async throws -> [String] {
        let answer = try await tv.send(.GET, "/api/v2/\(tv.serviceProvider)/profiles")
        #expect(answer.status == 200, "\(answer.text)")
        return try answer.decode(ProfilesResponse.self).profiles.keys.sorted()
    }

    /// Requestor `OTHER`, integrated with `mvpd` at the MVPD's settings, and a device registered with its app.
    static func otherRequestor(_ local: LocalService, mvpd: String) async throws -> RESTClient {
        try await local.service.requestors.save(
            id: "OTHER", name: "Other Network", domains: ["ios.app", "localhost", "127.0.0.1"], metadataCertificatePEM: nil)
        try await local.service.integrations.setEnabled(requestor: "OTHER", mvpd: mvpd, enabled: true, actor: "test")
        let (_, jwt) = try await local.service.applications.issueSoftwareStatement(
            requestor: "OTHER", name: "Other TV", redirectURIs: ["adobepass://ios.app"])
        var other = RESTClient(transport: local.transport, baseURL: local.baseURL, serviceProvider: "OTHER", deviceID: "other-" + UUID().uuidString)
        _ = try await other.registerAndAuthorize(softwareStatement: jwt)
        return other
    }

    /// SAML (DemoCable) and OAuth 2.0 (DemoStream), each with two of its subscribers.
    @Test(arguments: [("DemoCable", "alice", "bob"), ("DemoStream", "erin", "frank")])
    func theIntegrationsLifetimeWinsOverTheMVPDs(mvpd: String, user: String, otherUser: String) async throws {
        try await LocalService.run { local in
            try await local.service.integrations.setSettings(
                requestor: "REF", mvpd: mvpd, displayName: nil, logoURL: nil, profileTTLSeconds: 60, actor: "test")
            let tv = try await local.client()
            let other = try await Self.otherRequestor(local, mvpd: mvpd)
            _ = try await local.signIn(tv, mvpd: mvpd, user: user)
            _ = try await local.signIn(other, mvpd: mvpd, user: otherUser)
            #expect(try await Self.signedIn(tv) == [mvpd])
            #expect(try await Self.signedIn(other) == [mvpd])

            local.clock.advance(by: 61)
            #expect(try await Self.signedIn(tv) == [], "REF's integration keeps a sign-in 60 s")
            #expect(try await Self.signedIn(other) == [mvpd], "OTHER's integration keeps the MVPD's lifetime")
            let answer = try await tv.send(.GET, "/api/v2/REF/profiles/\(mvpd)")
            #expect(answer.status != 200 || (try? answer.decode(ProfilesResponse.self).profiles.isEmpty) == true, "\(answer.text)")
        }
    }
}
