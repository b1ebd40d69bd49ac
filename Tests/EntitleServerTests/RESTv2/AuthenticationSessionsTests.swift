import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// ``AuthenticationSessions``' registration-code lookups on in-memory stores and a ``ManualClock``: no database, no
/// HTTP. A code counts only while its session lives and for its own requestor; failed lookups spend a guess budget of
/// 10, refilled at one a minute.
@Suite struct AuthenticationSessionsTests {
    let clock = ManualClock(InMemoryStoreFixtures.start)
    let sessionStore = InMemorySessionStore()
    let rateLimits = InMemoryRateLimitStore()
    var service: AuthenticationSessions {
        let profiles = InMemoryProfileStore()
        let catalog = InMemoryStoreFixtures.catalog(InMemoryStoreFixtures.mvpd("M"))
        return AuthenticationSessions(
            sessionStore: sessionStore, rateLimits: rateLimits, profiles: profiles, catalog: catalog, purgeExpired: { _ in },
            tempPass: TempPassService(passes: InMemoryTempPassStore(), profiles: profiles, catalog: catalog, metrics: ServiceMetrics(), clock: clock),
            degradation: DegradationService(
                rules: InMemoryDegradationStore(), profiles: profiles, catalog: catalog, metrics: ServiceMetrics(), clock: clock),
            clock: clock, sessionLifetime: 1_800_000)
    }

    /// A pending session of `REF` with `code`, living 30 minutes from the clock's start.
    func insertSession(code: String) async throws {
        let start = InMemoryStoreFixtures.startMilliseconds
        let inserted = try await sessionStore.insertSession(
            AuthSessionRecord(
                code: code, sessionId: "s-" + code, requestorId: "REF", clientId: "c", deviceId: "d", mvpdId: nil, domainName: nil,
                redirectUrl: nil, status: .pending, authnRequestId: nil, failure: nil, createdAt: start, notAfter: start + 1_800_000))
        #expect(inserted)
    }

    @Test func aCodeIsFoundInAnySpellingWhileItsSessionLives() async throws {
        try await insertSession(code: "ABCD2345")
        #expect(try await service.liveSession(code: "abcd-2345", requestor: "REF", bucket: "device").sessionId == "s-ABCD2345")
        await InMemoryStoreFixtures.expect(.invalidCode) { try await service.liveSession(code: "ABCD2345", requestor: "OTHER", bucket: "device") }
        clock.advance(by: 1800)
        await InMemoryStoreFixtures.expect(.invalidCode) { try await service.liveSession(code: "ABCD2345", requestor: "REF", bucket: "device") }
    }

    @Test func failedLookupsSpendAGuessBudgetRefilledOnceAMinute() async throws {
        try await insertSession(code: "ABCD2345")
        for guess in ["", "nonsense", "ABCD2346", "ABCD2347", "ABCD2348", "ABCD2349", "ABCD234A", "ABCD234B", "ABCD234C", "ABCD234D"] {
            await InMemoryStoreFixtures.expect(.invalidCode) { try await service.liveSession(code: guess, requestor: "REF", bucket: "device") }
        }
        let refused = await #expect(throws: RetryLater.self) { try await service.liveSession(code: "ABCD234E", requestor: "REF", bucket: "device") }
        #expect(refused?.seconds == 60)
        // Another device has its own budget; a found code spends nothing.
        await InMemoryStoreFixtures.expect(.invalidCode) { try await service.liveSession(code: "ABCD234E", requestor: "REF", bucket: "other") }
        #expect(try await service.liveSession(code: "ABCD2345", requestor: "REF", bucket: "device").code == "ABCD2345")

        clock.advance(by: 60)
        await InMemoryStoreFixtures.expect(.invalidCode) { try await service.liveSession(code: "ABCD234E", requestor: "REF", bucket: "device") }
        await #expect(throws: RetryLater.self) { try await service.liveSession(code: "ABCD234F", requestor: "REF", bucket: "device") }
    }
}
