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

/// What instances keep in memory (catalog, MVPD answers, rate-limit buckets) never outlives the state it copies:
/// a revoked client, a logged-out profile, a changed degradation rule, an expired authorization.
@Suite struct CachingTests {
    static func authorized(_ tv: RESTClient, _ resource: String = "news", kind: String = "authorize") async throws -> Bool {
        try await tv.decisions(kind, mvpd: "DemoCable", resources: [resource]).decode(DecisionsResponse.self).decisions[0].authorized
    }

    @Test func mvpdAnswersAreKeptForTheTTLAndConcurrentQuestionsShareOneCall() async throws {
        try await LocalService.run { host in
            let cache = host.service.caches.authorizations
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let start = cache.mvpdCalls
            #expect(try await Self.authorized(tv, kind: "preauthorize"))
            #expect(try await Self.authorized(tv))
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == start + 1)
            // A denial is kept too, with its message, for at most a minute.
            #expect(try await !Self.authorized(tv, "movies"))
            #expect(try await !Self.authorized(tv, "movies"))
            #expect(cache.mvpdCalls == start + 2)
            // Eight plays of a new resource at once: one question to the MVPD.
            let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.authorized(tv, "sports") } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(answers == Array(repeating: true, count: 8))
            #expect(cache.mvpdCalls == start + 3)
            // Expired: asked again.
            host.clock.advance(by: 601)
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == start + 4)
            // TTL 0 for this requestor: every decision asks.
            try await host.service.repository.catalogStore.setAuthorizationTTL(
                AuthorizationTTLRecord(requestorId: "REF", mvpdId: "DemoCable", ttlSeconds: 0))
            #expect(try await Self.authorized(tv))
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == start + 6)
        }
    }

    @Test func logoutNewSignInDegradationRulesAndFlushDropAnswers() async throws {
        try await LocalService.run { host in
            let cache = host.service.caches.authorizations
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            #expect(try await Self.authorized(tv))
            let afterFirst = cache.mvpdCalls
            // Logout: no decision for the logged-out profile, and its answers are gone.
            _ = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable")
            let loggedOut = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
            #expect(loggedOut.status == 403 || loggedOut.status == 401)
            #expect(cache.count == 0)
            // A new sign-in asks again.
            _ = try await host.signIn(tv, user: "bob")
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == afterFirst + 1)
            // A degradation rule applies at once, and when it goes the MVPD is asked again.
            let now = host.clock.now()
            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authz-none", start: now, end: now.addingTimeInterval(600))
            #expect(try await !Self.authorized(tv))
            #expect(try await host.service.repository.degradationStore.deleteDegradationRule(requestor: "REF", mvpd: "DemoCable", rule: "authz-none"))
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == afterFirst + 2)
            // `entitle admin cache flush` (a catalog version bump from any process) drops answers too.
            try await Repository(sql: host.host.engine.sql).catalogChanged()
            #expect(try await Self.authorized(tv))
            #expect(cache.mvpdCalls == afterFirst + 3)
        }
    }

    /// A client revoked through one instance (or `entitle admin`) is refused by both instances within the bound.
    @Test func aRevokedClientIsRefusedByEveryInstanceWithinTheBound() async throws {
        let clock = ManualClock()
        let bound = Duration.milliseconds(300)
        try await LocalService.runTwoInstances(clock: clock, catalogRefresh: bound) { first, second in
            let tv = try await first.client()
            var viaSecond = RESTClient(httpClient: second.httpClient, baseURL: second.baseURL, serviceProvider: "REF", deviceID: tv.deviceID)
            viaSecond.accessToken = tv.accessToken
            // Both instances have the client in memory.
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
            #expect(try await viaSecond.send(.GET, "/api/v2/REF/configuration").status == 200)
            let clientID = try #require(await first.service.tokens.verify(accessToken: tv.accessToken ?? "")?.sub)
            // Revoked from a third process-like repository on the same database, as `entitle admin client revoke` does.
            #expect(try await Repository(sql: first.host.engine.sql).clientStore.revokeClient(id: clientID))
            try await Task.sleep(for: bound + .milliseconds(100))
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 401)
            #expect(try await viaSecond.send(.GET, "/api/v2/REF/configuration").status == 401)
        }
    }

    @Test func rateLimitBucketsAreBoundedInMemory() {
        let limiter = DeviceRateLimiter(capacity: 100)
        for device in 0..<1_000 { _ = limiter.take("dev:\(device)", ratePerSecond: 1, burst: 2, now: 0) }
        #expect(limiter.count <= 100)
        #expect(limiter.take("dev:x", ratePerSecond: 1, burst: 2, now: 0).allowed)
        #expect(limiter.take("dev:x", ratePerSecond: 1, burst: 2, now: 0).allowed)
        let refused = limiter.take("dev:x", ratePerSecond: 1, burst: 2, now: 0)
        #expect(!refused.allowed && refused.retryAfter == 1)
        #expect(limiter.take("dev:x", ratePerSecond: 1, burst: 2, now: 1_000).allowed)
    }
}
