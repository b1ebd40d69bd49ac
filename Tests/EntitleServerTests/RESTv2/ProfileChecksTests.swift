import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import Testing

/// ``ProfileChecks``, the one place where REST v2, v1 and adobe-services look a device's profile up, check its expiry
/// against the service's clock and limit the resources of a request. The checks run on a scratch, migrated database
/// (SQLite; PostgreSQL too when one is given: the SQL contract of ``ProfileStore``) and on ``InMemoryProfileStore``
/// (no database); the clock is a ``ManualClock`` the test moves.
@Suite struct ProfileChecksTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let failures = ProfileChecks.Failures(
        missing: EnhancedError(action: "authentication", status: 401, code: "test_missing", message: "missing"),
        expired: EnhancedError(action: "authentication", status: 403, code: "test_expired", message: "expired"))

    /// Runs `body` with checks on a fresh, migrated database of each available engine (SQLite, and PostgreSQL when
    /// `ENTITLE_TEST_DATABASE_URL` is set), then on ``InMemoryProfileStore`` (the same contract without a database),
    /// with a manual clock at ``start``.
    static func withChecks(_ body: (ProfileChecks, any ProfileStoring, ManualClock) async throws -> Void) async throws {
        try await ScratchEngines.withEach { engine in
            let store = Repository(sql: engine.sql).profileStore
            let clock = ManualClock(start)
            try await body(ProfileChecks(profiles: store, clock: clock), store, clock)
        }
        let store = InMemoryProfileStore()
        let clock = ManualClock(start)
        try await body(ProfileChecks(profiles: store, clock: clock), store, clock)
    }

    /// A profile of device `d` of client `c` at requestor `REF`, valid from `notBefore` for `seconds`.
    static func profile(mvpd: String, notBefore: Int64, seconds: Int64, sessionCode: String? = nil) -> ProfileRecord {
        ProfileRecord(
            requestorId: "REF", clientId: "c", deviceId: "d", mvpdId: mvpd, type: .regular, issuer: mvpd, notBefore: notBefore,
            notAfter: notBefore + seconds * 1000, attributes: "{}", nameId: "u", sessionIndex: nil, sessionCode: sessionCode, userId: "u")
    }

    static var startMilliseconds: Int64 { Int64(start.timeIntervalSince1970 * 1000) }

    /// Expects `body` to throw the API error with `code`.
    static func expectError(_ code: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(code), got no error")
        } catch let error as APIError {
            #expect(error.body.code.rawValue == code)
        } catch {
            Issue.record("expected \(code), got \(error)")
        }
    }

    @Test func aProfileWithOneMVPDIsFoundWhileInForceAndExpiresOnTheServiceClock() async throws {
        try await Self.withChecks { checks, store, clock in
            await Self.expectError("test_missing") {
                _ = try await checks.profile(requestor: "REF", client: "c", device: "d", mvpd: "M", failures: Self.failures)
            }
            try await store.upsertProfile(Self.profile(mvpd: "M", notBefore: Self.startMilliseconds, seconds: 60))
            let found = try await checks.profile(requestor: "REF", client: "c", device: "d", mvpd: "M", failures: Self.failures)
            #expect(found.mvpdId == "M" && checks.isLive(found))
            // Another device, client or MVPD has no profile.
            await Self.expectError("test_missing") {
                _ = try await checks.profile(requestor: "REF", client: "c", device: "other", mvpd: "M", failures: Self.failures)
            }
            await Self.expectError("test_missing") {
                _ = try await checks.profile(requestor: "REF", client: "c", device: "d", mvpd: "N", failures: Self.failures)
            }
            clock.advance(by: 60)
            #expect(!checks.isLive(found), "a profile is out of force at its notAfter")
            await Self.expectError("test_expired") {
                _ = try await checks.profile(requestor: "REF", client: "c", device: "d", mvpd: "M", failures: Self.failures)
            }
        }
    }

    @Test func theCurrentProfileIsTheMostRecentOneInForce() async throws {
        try await Self.withChecks { checks, store, clock in
            #expect(try await checks.currentProfile(requestor: "REF", client: "c", device: "d") == nil)
            await Self.expectError("test_missing") {
                _ = try await checks.currentProfile(requestor: "REF", client: "c", device: "d", failures: Self.failures)
            }
            let now = Self.startMilliseconds
            try await store.upsertProfile(Self.profile(mvpd: "Older", notBefore: now - 10_000, seconds: 120))
            try await store.upsertProfile(Self.profile(mvpd: "Newer", notBefore: now - 5_000, seconds: 30))
            #expect(try await checks.currentProfile(requestor: "REF", client: "c", device: "d", failures: Self.failures).mvpdId == "Newer")
            // The newer one ends first: the older one, still in force, is current.
            clock.advance(by: 30)
            #expect(try await checks.currentProfile(requestor: "REF", client: "c", device: "d", failures: Self.failures).mvpdId == "Older")
            clock.advance(by: 120)
            #expect(try await checks.currentProfile(requestor: "REF", client: "c", device: "d") == nil)
            await Self.expectError("test_expired") {
                _ = try await checks.currentProfile(requestor: "REF", client: "c", device: "d", failures: Self.failures)
            }
        }
    }

    @Test func theProfileOfARegistrationCodeCountsOnlyWhileInForce() async throws {
        try await Self.withChecks { checks, store, clock in
            #expect(try await checks.profile(requestor: "REF", sessionCode: "CODE") == nil)
            try await store.upsertProfile(Self.profile(mvpd: "M", notBefore: Self.startMilliseconds, seconds: 10, sessionCode: "CODE"))
            #expect(try await checks.profile(requestor: "REF", sessionCode: "CODE")?.mvpdId == "M")
            #expect(try await checks.profile(requestor: "OTHER", sessionCode: "CODE") == nil)
            clock.advance(by: 10)
            #expect(try await checks.profile(requestor: "REF", sessionCode: "CODE") == nil)
        }
    }

    @Test func aRequestNamesAtMostTheRequestorsMaximumOfResources() async throws {
        try await Self.withChecks { checks, _, _ in
            let requestor = RequestorRecord(id: "REF", name: "R", domains: [], maxResources: 3, metadataCertificatePem: nil)
            try checks.checkResourceCount(1, requestor: requestor)
            try checks.checkResourceCount(3, requestor: requestor)
            await Self.expectError(EnhancedError.tooManyResources.code.rawValue) { try checks.checkResourceCount(4, requestor: requestor) }
        }
    }
}
