import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// ``DegradationService`` on in-memory stores and a ``ManualClock``: no database, no HTTP.
@Suite struct DegradationServiceTests {
    let clock = ManualClock(InMemoryStoreFixtures.start)
    let rules = InMemoryDegradationStore()
    let profiles = InMemoryProfileStore()
    var service: DegradationService {
        DegradationService(
            rules: rules, profiles: profiles, catalog: InMemoryStoreFixtures.catalog(InMemoryStoreFixtures.mvpd("M")), metrics: ServiceMetrics(),
            clock: clock)
    }

    @Test func authnAllLogsADeviceInWithADegradedProfileUntilTheRuleEnds() async throws {
        let mvpd = InMemoryStoreFixtures.mvpd("M")
        #expect(try await service.degradedLogin(requestor: "REF", clientID: "c", device: "d", mvpd: mvpd, sessionCode: "S") == nil)
        let start = InMemoryStoreFixtures.start
        try await service.setDegradation(requestor: "REF", mvpd: "M", rule: .authnAll, start: start - 60, end: start + 3600)
        #expect(try await service.activeDegradation(requestor: "REF", mvpd: "M") == [.authnAll])

        let profile = try #require(try await service.degradedLogin(requestor: "REF", clientID: "c", device: "d", mvpd: mvpd, sessionCode: "S"))
        #expect(profile.type == .degraded)
        #expect(profile.notBefore == InMemoryStoreFixtures.startMilliseconds)
        #expect(profile.notAfter == InMemoryStoreFixtures.startMilliseconds + 3_600_000)
        #expect(profile.userId.hasPrefix("95cf93bcd183214a"))
        #expect(try await profiles.profile(requestor: "REF", sessionCode: "S") == profile)

        clock.advance(by: 3600)
        #expect(try await service.activeDegradation(requestor: "REF", mvpd: "M").isEmpty)
        #expect(try await service.degradedLogin(requestor: "REF", clientID: "c", device: "d2", mvpd: mvpd, sessionCode: nil) == nil)
    }

    @Test func aDegradedProfileLastsAtMostADay() async throws {
        let start = InMemoryStoreFixtures.start
        try await service.setDegradation(requestor: "REF", mvpd: "M", rule: .authnAll, start: start, end: start + 7 * 86_400)
        let profile = try #require(
            try await service.degradedLogin(requestor: "REF", clientID: "c", device: "d", mvpd: InMemoryStoreFixtures.mvpd("M"), sessionCode: nil))
        #expect(profile.notAfter == InMemoryStoreFixtures.startMilliseconds + 86_400_000)
    }

    @Test func settingARuleAgainReplacesIt() async throws {
        let start = InMemoryStoreFixtures.start
        try await service.setDegradation(requestor: "REF", mvpd: "M", rule: .authzAll, start: start, end: start + 60)
        try await service.setDegradation(requestor: "REF", mvpd: "M", rule: .authzAll, start: start, end: start + 120)
        #expect(rules.all.map(\.endsAt) == [InMemoryStoreFixtures.startMilliseconds + 120_000])
        clock.advance(by: 90)
        #expect(try await service.activeDegradation(requestor: "REF", mvpd: "M") == [.authzAll])
    }

    @Test func badRulesAreRefusedWithAClearError() async throws {
        let start = InMemoryStoreFixtures.start
        let cases: [(DegradationRule, String, Date, String)] = [
            (DegradationRule(rawValue: "authz-some"), "M", start + 60, "Unknown rule authz-some: use authn-all, authz-all or authz-none."),
            (.authzAll, "M", start, "The end must be after the start."),
            (.authzAll, "Other", start + 60, "Other is not integrated with REF."),
        ]
        for (rule, mvpd, end, message) in cases {
            let error = await #expect(throws: ConfigurationError.self) {
                try await service.setDegradation(requestor: "REF", mvpd: mvpd, rule: rule, start: start, end: end)
            }
            #expect(error?.description == message)
        }
        #expect(rules.all.isEmpty)
    }
}
