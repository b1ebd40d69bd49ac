import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Profiles are read from memory, and a logout, a new sign-in, an expiry or a deletion made on any instance (or by
/// another process on the database) is in force on every instance within the bound — on SQLite through the polled
/// change feed, on PostgreSQL through `LISTEN/NOTIFY`. The instance that made the change sees it at once.
///
/// In `runTwoInstances` the instance started second seeded the demo world last, so the catalog names its DemoMVPD:
/// sign-ins go through it, which these tests call `first`.
@Suite struct ProfileCacheTests {
    static let bound = Duration.milliseconds(200)
    /// Time for a change to arrive from elsewhere: the bound plus scheduling slack.
    static let settle = bound + .milliseconds(200)

    /// A client of `instance` registered with the demo software statement, with its registration kept so that it can
    /// fetch a new access token after the clock moved.
    static func client(_ instance: LocalService, device: String = "device-" + UUID().uuidString) async throws -> (RESTClient, ClientRegistration) {
        var client = RESTClient(httpClient: instance.httpClient, baseURL: instance.baseURL, serviceProvider: "REF", deviceID: device)
        let registration = try await client.registerAndAuthorize(softwareStatement: instance.softwareStatement)
        return (client, registration)
    }

    /// The same client application and device, talking to `instance`.
    static func same(_ client: RESTClient, on instance: LocalService) -> RESTClient {
        var other = RESTClient(httpClient: instance.httpClient, baseURL: instance.baseURL, serviceProvider: "REF", deviceID: client.deviceID)
        other.accessToken = client.accessToken
        return other
    }

    static func profiles(_ client: RESTClient) async throws -> [String: Profile] {
        let answer = try await client.send(.GET, "/api/v2/REF/profiles")
        #expect(answer.status == 200, "profiles: HTTP \(answer.status) \(answer.text.prefix(200))")
        return try answer.decode(ProfilesResponse.self).profiles
    }

    static func authorized(_ client: RESTClient) async throws -> Bool {
        let answer = try await client.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
        guard answer.status == 200 else { return false }
        return try answer.decode(DecisionsResponse.self).decisions.first?.authorized == true
    }

    /// On PostgreSQL, waits until both instances listen for changes (until then they cache nothing).
    static func waitForFeeds(_ instances: LocalService...) async throws {
        for instance in instances where instance.host.engine.kind == .postgres {
            for _ in 0..<100 where !instance.service.repository.profileCache.isListening {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(instance.service.repository.profileCache.isListening)
        }
    }

    @Test func aLogoutOnOneInstanceIsInForceEverywhereWithinTheBound() async throws {
        try await LocalService.runTwoInstances(profileCacheBound: Self.bound) { second, first in
            try await Self.waitForFeeds(first, second)
            let (tv, _) = try await Self.client(first)
            _ = try await first.signIn(tv, user: "bob")
            let viaSecond = Self.same(tv, on: second)
            #expect(try await Self.profiles(viaSecond)["DemoCable"] != nil)
            #expect(try await Self.authorized(viaSecond))
            #expect(second.service.repository.profileCache.count >= 1, "the second instance keeps the profile in memory")

            _ = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable")
            // The instance that made the change: at once.
            #expect(try await Self.profiles(tv).isEmpty)
            #expect(try await !Self.authorized(tv))
            // Every other instance: within the bound.
            try await Task.sleep(for: Self.settle)
            #expect(try await Self.profiles(viaSecond).isEmpty)
            #expect(try await !Self.authorized(viaSecond))
        }
    }

    @Test func aNewSignInOnOneInstanceIsSeenEverywhereWithinTheBound() async throws {
        try await LocalService.runTwoInstances(profileCacheBound: Self.bound) { second, first in
            try await Self.waitForFeeds(first, second)
            let (tv, _) = try await Self.client(first)
            let viaSecond = Self.same(tv, on: second)
            // The second instance has "no profile" in memory for this device.
            #expect(try await Self.profiles(viaSecond).isEmpty)
            #expect(try await Self.profiles(viaSecond).isEmpty)
            _ = try await first.signIn(tv, user: "bob")
            #expect(try await Self.profiles(tv)["DemoCable"] != nil)
            try await Task.sleep(for: Self.settle)
            #expect(try await Self.profiles(viaSecond)["DemoCable"] != nil)
            #expect(try await Self.authorized(viaSecond))
        }
    }

    @Test func aProfileDeletedByAnotherProcessIsRefusedEverywhereWithinTheBound() async throws {
        try await LocalService.runTwoInstances(profileCacheBound: Self.bound) { second, first in
            try await Self.waitForFeeds(first, second)
            let (tv, registration) = try await Self.client(first)
            _ = try await first.signIn(tv, user: "bob")
            let viaSecond = Self.same(tv, on: second)
            #expect(try await Self.authorized(tv))
            #expect(try await Self.authorized(viaSecond))
            // Deleted through a repository of its own on the same database, as another process would.
            let removed = try await Repository(sql: first.host.engine.sql).profileStore.deleteProfile(
                requestor: "REF", client: registration.clientID, device: tv.deviceID, mvpd: "DemoCable")
            #expect(removed != nil)
            try await Task.sleep(for: Self.settle)
            #expect(try await !Self.authorized(tv))
            #expect(try await !Self.authorized(viaSecond))
            #expect(try await Self.profiles(viaSecond).isEmpty)
        }
    }

    @Test func anExpiredProfileIsRefusedEverywhereAtOnce() async throws {
        let clock = ManualClock()
        try await LocalService.runTwoInstances(clock: clock, profileCacheBound: Self.bound) { second, first in
            try await Self.waitForFeeds(first, second)
            var (tv, registration) = try await Self.client(first)
            _ = try await first.signIn(tv, user: "bob")
            #expect(try await Self.authorized(Self.same(tv, on: second)))
            let record = try #require(
                try await first.service.repository.profileStore.profile(
                    requestor: "REF", client: registration.clientID, device: tv.deviceID, mvpd: "DemoCable"))
            clock.advance(by: Double(record.notAfter) - clock.now().timeIntervalSince1970 + 1)
            // A fresh access token, so that only the profile has expired.
            let token = try await tv.send(
                .POST, "/o/client/token",
                form: [("client_id", registration.clientID), ("client_secret", registration.clientSecret), ("grant_type", "client_credentials")],
                authorized: false)
            tv.accessToken = try token.decode(AccessTokenResponse.self).accessToken
            let viaSecond = Self.same(tv, on: second)
            #expect(try await Self.profiles(tv).isEmpty)
            #expect(try await Self.profiles(viaSecond).isEmpty)
            #expect(try await !Self.authorized(tv))
            #expect(try await !Self.authorized(viaSecond))
        }
    }

    @Test func aRevokedClientIsRefusedEverywhereWithCachedProfiles() async throws {
        let catalogBound = Duration.milliseconds(300)
        try await LocalService.runTwoInstances(catalogRefresh: catalogBound, profileCacheBound: Self.bound) { second, first in
            try await Self.waitForFeeds(first, second)
            let (tv, registration) = try await Self.client(first)
            _ = try await first.signIn(tv, user: "bob")
            let viaSecond = Self.same(tv, on: second)
            #expect(try await Self.authorized(viaSecond))
            #expect(try await Repository(sql: first.host.engine.sql).clientStore.revokeClient(id: registration.clientID))
            try await Task.sleep(for: catalogBound + .milliseconds(200))
            #expect(try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).status == 401)
            #expect(try await viaSecond.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).status == 401)
        }
    }

    @Test func withTheCacheOffEveryReadGoesToTheDatabase() async throws {
        try await LocalService.run(profileCacheBound: .zero) { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            #expect(try await Self.authorized(tv))
            #expect(host.service.repository.profileCache.count == 0)
        }
    }
}
