import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import MediaTokenVerifier
import Testing

/// ``DecisionService`` — the real one — on in-memory stores and a ``ManualClock``: no database. The MVPD's side is
/// given by ``ScriptedMVPD`` (its answers) or, for an MVPD that does not answer in time, by the real
/// ``MVPDAuthorizationClient`` against ``StalledMVPD`` on loopback. Profiles are looked up and limited by
/// ``ProfileChecks`` with the failures `DecisionsController` gives it, as on the wire (`BadInputTests`,
/// `AuthenticationFlowTests`).
@Suite struct DecisionServiceTests {
    let clock = ManualClock(InMemoryStoreFixtures.start)
    let catalog: InMemoryCatalogStore
    let options = InMemoryMVPDOptionsStore()
    let profiles = InMemoryProfileStore()
    let tempPasses = InMemoryTempPassStore()
    let rules = InMemoryDegradationStore()
    let authorizations = AuthorizationCache()
    let mvpd = ScriptedMVPD()
    /// A SAML MVPD with an authorization endpoint (Entitle's JSON unless the test sets another protocol).
    let saml: MVPDRecord
    /// A Promotional TempPass: 10 minutes, at most 2 resources.
    let promo = InMemoryStoreFixtures.mvpd("Promo", tempPassMinutes: 10, resourceLimit: 2)

    init() {
        var saml = InMemoryStoreFixtures.mvpd("M")
        saml.authorizationUrl = "http://127.0.0.1:9/authorize"
        self.saml = saml
        catalog = InMemoryStoreFixtures.catalog(saml, promo)
    }

    var degradation: DegradationService {
        DegradationService(rules: rules, profiles: profiles, catalog: catalog, metrics: ServiceMetrics(), clock: clock)
    }

    /// The service under test; `mvpdClient` replaces the scripted MVPD.
    func service(mvpdClient: (any MVPDAuthorizing)? = nil) -> DecisionService {
        DecisionService(
            catalog: catalog, mvpdOptions: options, tempPasses: tempPasses, profileStore: profiles, authorizations: authorizations,
            mvpdClient: mvpdClient ?? mvpd, degradation: degradation, mediaTokens: TestMediaTokens(), oauth2: NoOAuth2Grant(),
            metrics: ServiceMetrics(), clock: clock, defaultAuthorizationTTL: 0, decisionLifetime: 24 * 3_600_000)
    }

    var checks: ProfileChecks { ProfileChecks(profiles: profiles, clock: clock) }

    /// Signs device `d` in at `mvpd` now for `seconds`.
    @discardableResult
    func signIn(_ mvpd: MVPDRecord, seconds: Int64 = 3600, device: String = "d") async throws -> ProfileRecord {
        let now = clock.nowMilliseconds()
        let profile = ProfileRecord(
            requestorId: "REF", clientId: "c", deviceId: device, mvpdId: mvpd.id, type: .regular, issuer: mvpd.id, notBefore: now,
            notAfter: now + seconds * 1000, attributes: "{}", nameId: "u-1", sessionIndex: "s-1", sessionCode: nil, userId: "u-1")
        try await profiles.upsertProfile(profile)
        return profile
    }

    /// What `POST decisions/authorize|preauthorize/{mvpd}` does after reading the body: the resource limit, the profile in
    /// force (with the controller's failures), then the decisions.
    func decide(
        _ resources: [String], at mvpd: MVPDRecord, issueTokens: Bool = true, fresh: Bool = false, device: String = "d",
        service: DecisionService? = nil
    ) async throws -> [Decision] {
        let requestor = try #require(try await catalog.requestor(id: "REF"))
        try checks.checkResourceCount(resources.count, requestor: requestor)
        let profile = try await checks.profile(
            requestor: "REF", client: "c", device: device, mvpd: mvpd.id,
            failures: .init(
                missing: .authenticatedProfileMissing,
                expired: mvpd.isTempPass ? .temporaryAccessDurationLimitExceeded : .authenticatedProfileExpired))
        return try await (service ?? self.service()).decide(
            resources, requestor: "REF", mvpd: mvpd, profile: profile, issueTokens: issueTokens, origin: .unknown, fresh: fresh)
    }

    /// Expects `body` to be refused with the API error `code` and HTTP `status`.
    func expectRefused(
        _ code: String, status: Int = 403, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        let error = await #expect(throws: APIError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(error?.body.code.rawValue == code, sourceLocation: sourceLocation)
        #expect(error?.body.status == status, sourceLocation: sourceLocation)
    }

    @Test func authorizeWithAValidProfileGivesADecisionWithAMediaToken() async throws {
        let profile = try await signIn(saml)
        let decisions = try await decide(["news"], at: saml)
        let decision = try #require(decisions.first)
        #expect(decisions.count == 1)
        #expect(decision.authorized && decision.error == nil && decision.source == .mvpd)
        #expect(decision.resource == "news" && decision.serviceProvider == "REF" && decision.mvpd == "M")
        #expect(decision.notBefore == InMemoryStoreFixtures.startMilliseconds)
        #expect(decision.notAfter == profile.notAfter, "a decision lasts no longer than its profile")
        #expect(mvpd.asked == [["news"]])

        let token = try #require(decision.token)
        #expect(token.notAfter == InMemoryStoreFixtures.startMilliseconds + 420_000)
        let verifier = MediaTokenVerifier(keys: try VerificationKeySet(keys: [TestMediaTokens.key.publicKey]))
        let verified = await verifier.verify(token.serializedToken, requestor: "REF", resource: "news", now: InMemoryStoreFixtures.start)
        #expect(verified.status == .valid && verified.signatureVerified)
        #expect(verified.token?.mvpdID == "M")

        // Preauthorize decides without tokens.
        let preauthorized = try await decide(["news"], at: saml, issueTokens: false)
        #expect(preauthorized.map(\.authorized) == [true] && preauthorized[0].token == nil)
    }

    @Test func theMVPDsDenialsKeepTheirMeaningAndMessage() async throws {
        try await signIn(saml)
        mvpd.answer("movies", .denied(parentalControls: true, message: "Rated TV-MA."))
        mvpd.answer("sports", .denied(parentalControls: false, message: "Your package does not include sports."))
        let decisions = try await decide(["news", "movies", "sports", "<rss><channel>"], at: saml)
        #expect(decisions.map(\.resource) == ["news", "movies", "sports", "<rss><channel>"], "in the order asked")
        #expect(decisions.map(\.authorized) == [true, false, false, false])
        #expect(decisions[1].error?.code == .authorizationDeniedByParentalControls && decisions[1].error?.details == "Rated TV-MA.")
        #expect(decisions[2].error?.code == .authorizationDeniedByMVPD)
        #expect(decisions[2].error?.details == "Your package does not include sports.")
        #expect(decisions[3].error?.code == .invalidParameterResources, "a malformed resource is refused before the MVPD is asked")
        #expect(decisions.allSatisfy { $0.authorized == ($0.token != nil) })
        #expect(Set(mvpd.asked) == [["news"], ["movies"], ["sports"]])

        let preauthorized = try await decide(["sports"], at: saml, issueTokens: false)
        #expect(preauthorized[0].error?.code == .preauthorizationDeniedByMVPD)
    }

    @Test func anExpiredProfileIsRefused() async throws {
        try await signIn(saml, seconds: 60)
        clock.advance(by: 59)
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        clock.advance(by: 1)
        await expectRefused("authenticated_profile_expired") { _ = try await decide(["news"], at: saml) }
        await expectRefused("authenticated_profile_expired") { _ = try await decide(["news"], at: saml, issueTokens: false) }
        #expect(mvpd.asked.count == 1, "an expired profile never reaches the MVPD")
    }

    @Test func aLoggedOutDeviceIsRefused() async throws {
        await expectRefused("authenticated_profile_missing") { _ = try await decide(["news"], at: saml) }
        try await signIn(saml)
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        // Logout: the profile goes, and with it the MVPD answers kept for the subscriber.
        profiles.deleteProfile(requestor: "REF", client: "c", device: "d", mvpd: "M")
        authorizations.drop(requestor: "REF", mvpd: "M", userID: "u-1")
        await expectRefused("authenticated_profile_missing") { _ = try await decide(["news"], at: saml) }
        // Another device's sign-in is its own.
        try await signIn(saml, device: "other")
        await expectRefused("authenticated_profile_missing") { _ = try await decide(["news"], at: saml) }
    }

    @Test func moreResourcesThanTheRequestorAllowsAreRefused() async throws {
        try await signIn(saml)
        let six = ["a", "b", "c", "d", "e", "f"]
        await expectRefused("too_many_resources") { _ = try await decide(six, at: saml) }
        await expectRefused("too_many_resources") { _ = try await decide(six, at: saml, issueTokens: false) }
        #expect(mvpd.asked.isEmpty)
        #expect(try await decide(Array(six.prefix(5)), at: saml, issueTokens: false).allSatisfy(\.authorized))
    }

    @Test func preflightAsksTheMVPDAtMostItsLimitOfResourcesPerCall() async throws {
        try await signIn(saml)
        catalog.setAuthorizationProtocol(mvpd: "M", .xacml)
        options.setPreflight(requestor: "REF", mvpd: "M", maxResources: 2)
        mvpd.answer("c", .denied(parentalControls: false, message: nil))
        let decisions = try await decide(["a", "b", "c", "d", "e"], at: saml, issueTokens: false)
        #expect(mvpd.asked == [["a", "b"], ["c", "d"], ["e"]])
        #expect(decisions.map(\.authorized) == [true, true, false, true, true])
        #expect(decisions[2].error?.code == .preauthorizationDeniedByMVPD)

        // Authorize still asks one resource per call; without a limit, preauthorize does too.
        _ = try await decide(["a", "b"], at: saml)
        options.setPreflight(requestor: "REF", mvpd: "M", maxResources: nil)
        _ = try await decide(["a", "b"], at: saml, issueTokens: false)
        #expect(mvpd.asked.count == 7)
    }

    @Test func aKeptMVPDAnswerIsServedWithinItsTTLAndNotAfter() async throws {
        try await signIn(saml)
        catalog.setAuthorizationTTL(requestor: "REF", mvpd: "M", seconds: 60)
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        clock.advance(by: 59)
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        #expect(mvpd.asked.count == 1, "kept for its TTL")

        // The MVPD changes its mind: the kept permit is still served until the TTL ends.
        mvpd.answer("news", .denied(parentalControls: false, message: "Subscription ended."))
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        clock.advance(by: 1)
        let after = try await decide(["news"], at: saml)
        #expect(after.map(\.authorized) == [false] && after[0].error?.details == "Subscription ended.")
        #expect(mvpd.asked.count == 2)

        // `Cache-Control: no-cache` asks again; a catalog change drops what was kept.
        _ = try await decide(["news"], at: saml, fresh: true)
        #expect(mvpd.asked.count == 3)
        mvpd.answer("news", .authorized)
        catalog.setAuthorizationTTL(requestor: "REF", mvpd: "M", seconds: 120)
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        #expect(mvpd.asked.count == 4)
    }

    @Test func withoutATTLEveryDecisionAsksTheMVPD() async throws {
        try await signIn(saml)
        _ = try await decide(["news"], at: saml)
        _ = try await decide(["news"], at: saml)
        #expect(mvpd.asked.count == 2)
    }

    @Test func degradationRulesOverrideTheMVPD() async throws {
        try await signIn(saml)
        mvpd.answer("news", .denied(parentalControls: false, message: "No."))
        let start = InMemoryStoreFixtures.start
        try await degradation.setDegradation(requestor: "REF", mvpd: "M", rule: .authzAll, start: start, end: start + 60)
        let granted = try await decide(["news"], at: saml)
        #expect(granted.map(\.authorized) == [true] && granted[0].source == .degradation && granted[0].token != nil)

        try await degradation.setDegradation(requestor: "REF", mvpd: "M", rule: .authzNone, start: start, end: start + 60)
        try await degradation.setDegradation(requestor: "REF", mvpd: "M", rule: .authzAll, start: start, end: start + 1)
        let denied = try await decide(["news", "sports"], at: saml)
        #expect(denied.map(\.authorized) == [false, false] && denied.allSatisfy { $0.source == .degradation })
        #expect(denied.allSatisfy { $0.error?.code == .authorizationDeniedByDegradationRule && $0.error?.status == 403 })
        #expect(mvpd.asked.isEmpty, "the MVPD is not asked while a rule decides")

        clock.advance(by: 60)
        let ruled = try await decide(["news"], at: saml)
        #expect(ruled[0].source == .mvpd && ruled[0].error?.code == .authorizationDeniedByMVPD)
        #expect(mvpd.asked == [["news"]])
    }

    @Test func aPromotionalTempPassAuthorizesUpToItsResourceLimitWithoutTheMVPD() async throws {
        let pass = try await TempPassService(passes: tempPasses, profiles: profiles, catalog: catalog, metrics: ServiceMetrics(), clock: clock)
            .startTempPass(
                requestor: "REF", clientID: "c", device: "d", mvpd: promo, sessionCode: nil,
                identityHeader: Data(#"{"email":"0123abcd"}"#.utf8).base64EncodedString())
        // Preauthorize uses no slot.
        #expect(try await decide(["a", "b", "c"], at: promo, issueTokens: false).allSatisfy(\.authorized))
        #expect(try await tempPasses.promoResources(passKey: pass.nameId).isEmpty)

        let first = try await decide(["a"], at: promo)
        #expect(first[0].authorized && first[0].source == .tempPass && first[0].token != nil)
        #expect(try await decide(["b", "a"], at: promo).allSatisfy(\.authorized))
        let third = try await decide(["c"], at: promo)
        #expect(!third[0].authorized && third[0].source == .tempPass)
        #expect(third[0].error?.code == .temporaryAccessResourcesLimitExceeded)
        #expect(try await decide(["c"], at: promo, issueTokens: false)[0].error?.code == .temporaryAccessResourcesLimitExceeded)
        #expect(try await decide(["a"], at: promo)[0].authorized, "a resource already played stays playable")
        #expect(mvpd.asked.isEmpty)

        clock.advance(by: 600)
        await expectRefused("temporary_access_duration_limit_exceeded") { _ = try await decide(["a"], at: promo) }
    }

    @Test func anMVPDThatDoesNotAnswerInTimeIsATimeoutNotAKeptAnswer() async throws {
        let stalled = StalledMVPD()
        try await stalled.run { url in
            var slow = saml
            slow.authorizationUrl = url
            try await signIn(slow)
            catalog.setAuthorizationTTL(requestor: "REF", mvpd: "M", seconds: 600)
            let client = CountingMVPDClient(MVPDAuthorizationClient(httpClient: .shared, timeoutSeconds: 1))
            let service = service(mvpdClient: client)
            let first = try await decide(["news"], at: slow, service: service)
            #expect(first.map(\.authorized) == [false] && first[0].token == nil)
            #expect(first[0].error?.code == .maximumExecutionTimeExceeded && first[0].error?.status == 403)
            let second = try await decide(["news"], at: slow, service: service)
            #expect(second[0].error?.code == .maximumExecutionTimeExceeded)
            #expect(client.count == 2, "a timeout is never kept: the next decision asks again")
            // The calls were real HTTP requests (on a loaded machine the second may still be connecting when it times out).
            for _ in 0..<50 where stalled.requests == 0 { try await Task.sleep(for: .milliseconds(100)) }
            #expect(stalled.requests >= 1)
        }
    }

    @Test func ratingsAnMVPDSendsWithAPermitAreKeptWithTheProfile() async throws {
        try await signIn(saml)
        mvpd.answer("news", .authorizedFor(seconds: nil, maxRating: ["VCHIP": "TV-14"]))
        #expect(try await decide(["news"], at: saml).map(\.authorized) == [true])
        let profile = try #require(try await profiles.profile(requestor: "REF", client: "c", device: "d", mvpd: "M"))
        #expect(profile.attributeMap["maxRating"] == [#"{"VCHIP":"TV-14"}"#])
    }
}
