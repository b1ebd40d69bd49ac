import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// Degradation rules and Promotional TempPass as the SDK reports them, against the real service: statuses N010,
/// Z010 and Z169, and the `withData:` identity (hashed by the app, as Adobe's documentation asks) sent as given.
@Suite(.timeLimit(.minutes(10))) struct SDKDegradedAccessTests {
    /// SHA-256("viewer@example.com"), computed with sha256sum.
    static let viewerDigest = "0ad80c7f6dff0dceded893acb06a69e86b27b9f978bc164cee272714dc4cac9b"

    @Test func authnAllSignsInWithoutTheMVPDAndReportsN010ThenZ010() async throws {
        try await LocalService.run { service in
            let now = service.clock.now()
            try await service.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authn-all",
                start: now.addingTimeInterval(-1), end: now.addingTimeInterval(3600))
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("DemoCable")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(!app.log.contains("navigate"))
            let degraded = try #require(app.statuses.withLock { $0.first { $0[STATUS_ERROR_ID_KEY] == "N010" } })
            #expect(degraded[STATUS_LEVEL_KEY] == "warning")

            app.enabler.getAuthorization("movies")
            _ = try await app.waitFor("setToken(movies)")
            let authorized = try #require(app.statuses.withLock { $0.first { $0[STATUS_ERROR_ID_KEY] == "Z010" } })
            #expect(authorized[STATUS_RESOURCE_KEY] == "movies")
            #expect(app.flow.suffix(2) == ["status(Z010)", "setToken(movies)"])
        }
    }

    @Test func authzAllGrantsBobsDeniedChannelWithZ010() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            app.credentials.withLock { $0 = ("bob", "bob-pass") }
            try await app.enabler.configure(requestorID: "REF")
            try await app.enabler.authenticate(mvpd: "DemoCable")
            await #expect(throws: AccessEnablerError.self) { try await app.enabler.authorize("movies") }
            let now = service.clock.now()
            try await service.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authz-all", start: now,
                end: now.addingTimeInterval(600))
            #expect(try await app.enabler.authorize("movies").isEmpty == false)
            _ = try await app.waitFor("status(Z010)")
        }
    }

    @Test func authzNoneDeniesWithZ169() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            try await app.enabler.authenticate(mvpd: "DemoCable")
            let now = service.clock.now()
            try await service.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authz-none", start: now,
                end: now.addingTimeInterval(600))
            app.enabler.getAuthorization("news")
            let failure = try await app.waitFor("tokenRequestFailed(news")
            #expect(failure.hasPrefix("tokenRequestFailed(news,\(USER_NOT_AUTHORIZED_ERROR),"))
            let status = try #require(app.statuses.withLock { $0.last })
            #expect(status[STATUS_ERROR_ID_KEY] == "Z169")
            #expect(status[STATUS_RESOURCE_KEY] == "news")
            #expect(await app.enabler.authenticatedMVPD() == "DemoCable")
        }
    }

    @Test func promotionalTempPassCountsResourcesPerHashedIdentity() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            // The app hashes the address (SHA-256 of "user@domain.com", protocol notes §9.1); the SDK sends it as given.
            let digest = "f7ee5ec7312165148b69fcca1d29075b14b8aef0b5048a332b18b88d09069fb7"
            let flow = Task { try await app.enabler.authenticate(withData: ["email": digest]) }
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("TempPassPromo")
            #expect(try await flow.value == "TempPassPromo")
            // The status callback arrives on the callback executor, not necessarily before the async answer.
            #expect(try await app.waitFor("status(N011)") == "status(N011)")
            #expect("\(try await app.enabler.userMetadata("remaining_resources").value as Any)".contains("3"))
            for resource in ["news", "sports", "movies"] {
                #expect(try await app.enabler.authorize(resource).isEmpty == false)
            }
            app.enabler.getAuthorization("kids")
            let refused = try await app.waitFor("tokenRequestFailed(kids")
            #expect(refused.contains(USER_NOT_AUTHORIZED_ERROR) || refused.contains(USER_NOT_AUTHENTICATED_ERROR))
            // The SDK reads the counters again after a new sign-in.
            let again = Task { try await app.enabler.authenticate(forceAuthn: true, withData: ["email": digest]) }
            try await app.waitFor("displayProviderDialog", count: 2)
            app.enabler.setSelectedProvider("TempPassPromo")
            #expect(try await again.value == "TempPassPromo")
            #expect("\(try await app.enabler.userMetadata("used_assets").value as Any)".contains("3"))

            // A REST v2 client sending the same digest shares the pass.
            let other = try await service.client()
            let header = [("AP-TempPass-Identity", Data(#"{"email":"\#(digest)"}"#.utf8).base64EncodedString())]
            #expect(try await other.send(.POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: header).status == 200)
            let decision = try await other.decisions("authorize", mvpd: "TempPassPromo", resources: ["kids"]).decode(DecisionsResponse.self)
            #expect(decision.decisions.first?.error?.code == "temporary_access_resources_limit_exceeded")
        }
    }

    @Test func promotionalTempPassWithoutAnIdentityFailsClearly() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("TempPassPromo")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(GENERIC_AUTHENTICATION_ERROR))")
            #expect(await app.enabler.authenticatedMVPD() == nil)
        }
    }

    @Test func getAuthorizationWithDataCarriesTheIdentityIntoTheLogin() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthorization("news", withData: ["email": Self.viewerDigest])
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("TempPassPromo")
            _ = try await app.waitFor("setToken(news)")
            // The pass belongs to that identity: another client sending it sees one resource used.
            let other = try await service.client()
            let identity = Data(#"{"email":"\#(Self.viewerDigest)"}"#.utf8).base64EncodedString()
            #expect(
                try await other.send(
                    .POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")],
                    headers: [("AP-TempPass-Identity", identity)]
                ).status == 200)
            let profile = try #require(
                try await other.send(.GET, "/api/v2/REF/profiles/TempPassPromo").decode(ProfilesResponse.self)
                    .profiles["TempPassPromo"])
            #expect(profile.attributes["remaining_resources"]?.value == .string("2"))
        }
    }
}
