import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// A sign-in its identity provider ended (``Logout/endByIdentityProvider(_:reason:)``, which an OAuth 2.0 MVPD's
/// revoked refresh token calls; `OAuth2MVPDFlowTests` makes that happen for real) over the real service: REST v2's
/// decisions answer `authorization_denied_by_session_invalidated`, REST v1's authentication calls
/// `authentication_session_invalidated` and its authorization `authorization_denied_by_session_invalidated`; the profile
/// endpoints answer as Adobe documents them (an empty map); another device is told nothing of it; a new sign-in ends it.
@Suite struct InvalidatedSignInFlowTests {
    @Test func theDeviceIsToldItsSignInWasInvalidatedUntilItSignsInAgain() async throws {
        try await LocalService.run { host in
            let device = "stb-" + UUID().uuidString
            let rest = try await host.client(device: device)
            let (code, _) = try await host.signIn(rest, user: "alice")
            #expect(try await rest.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).status == 200)
            let profile = try #require(try await host.service.repository.profileStore.profile(requestor: "REF", sessionCode: code))
            try await host.service.logout.endByIdentityProvider(profile, reason: EndedSignInRecord.Reason.refreshTokenRevoked)

            let decision = try await rest.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
            let error = try decision.decode(EnhancedError.self)
            #expect(decision.status == 403 && error.code == .authorizationDeniedBySessionInvalidated, "\(decision.text)")
            #expect(error.action == .authentication)
            #expect(
                try await rest.decisions("preauthorize", mvpd: "DemoCable", resources: ["news"]).decode(EnhancedError.self).code
                    == .authorizationDeniedBySessionInvalidated)
            let profiles = try await rest.send(.GET, "/api/v2/REF/profiles/DemoCable")
            #expect(profiles.status == 200, "\(profiles.text)")
            #expect(try profiles.decode(ProfilesResponse.self).profiles.isEmpty, "\(profiles.text)")

            let v1 = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: device)
            let checked = try await v1.device(.GET, "/api/v1/checkauthn")
            #expect(checked.status == 403 && checked.json?["code"] as? String == "authentication_session_invalidated", "\(checked.text)")
            let authn = try await v1.device(.GET, "/api/v1/tokens/authn", format: nil)
            #expect(authn.status == 403 && authn.xml("code") == "authentication_session_invalidated", "\(authn.text)")
            let authorized = try await v1.device(.GET, "/api/v1/authorize", [("resource", "news")])
            #expect(authorized.status == 403 && authorized.json?["code"] as? String == "authorization_denied_by_session_invalidated")
            let media = try await v1.device(.GET, "/api/v1/tokens/media", [("resource", "news")])
            #expect(media.status == 403 && media.json?["code"] as? String == "authorization_denied_by_session_invalidated")

            // Another device of the same app never signed in: missing, as before.
            let other = try await host.client()
            #expect(
                try await other.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(EnhancedError.self).code
                    == .authenticatedProfileMissing)

            // Signing in again ends the news.
            _ = try await host.signIn(rest, user: "alice")
            #expect(try await rest.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).status == 200)
            _ = try await rest.send(.GET, "/api/v2/REF/logout/DemoCable")
            let afterLogout = try await rest.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
            #expect(try afterLogout.decode(EnhancedError.self).code == .authenticatedProfileMissing, "\(afterLogout.text)")
        }
    }
}
