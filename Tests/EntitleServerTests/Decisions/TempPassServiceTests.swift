import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// ``TempPassService`` on in-memory stores and a ``ManualClock``: no database, no HTTP.
@Suite struct TempPassServiceTests {
    let clock = ManualClock(InMemoryStoreFixtures.start)
    let passes = InMemoryTempPassStore()
    let profiles = InMemoryProfileStore()
    let plain = InMemoryStoreFixtures.mvpd("TempPass", tempPassMinutes: 10)
    let promo = InMemoryStoreFixtures.mvpd("Promo", tempPassMinutes: 60, resourceLimit: 2)
    var service: TempPassService {
        TempPassService(
            passes: passes, profiles: profiles,
            catalog: InMemoryStoreFixtures.catalog(plain, promo, InMemoryStoreFixtures.mvpd("SAML")), metrics: ServiceMetrics(), clock: clock)
    }
    /// `AP-TempPass-Identity` of one viewer.
    let identity = Data(#"{"email":"0123abcd"}"#.utf8).base64EncodedString()

    @Test func aTempPassRunsForItsLengthFromItsFirstUseAndThenRefuses() async throws {
        let first = try await service.startTempPass(requestor: "REF", clientID: "c", device: "d", mvpd: plain, sessionCode: "S1")
        #expect(first.type == .temporary)
        #expect(first.notBefore == InMemoryStoreFixtures.startMilliseconds)
        #expect(first.notAfter == InMemoryStoreFixtures.startMilliseconds + 600_000)
        #expect(try await profiles.profile(requestor: "REF", client: "c", device: "d", mvpd: "TempPass") == first)

        clock.advance(by: 300)
        let again = try await service.startTempPass(requestor: "REF", clientID: "c", device: "d", mvpd: plain, sessionCode: "S2")
        #expect(again.notBefore == first.notBefore && again.notAfter == first.notAfter)

        clock.advance(by: 300)
        await InMemoryStoreFixtures.expect(.temporaryAccessDurationLimitExceeded) {
            try await service.startTempPass(requestor: "REF", clientID: "c", device: "d", mvpd: plain, sessionCode: "S3")
        }
        #expect(try await service.resetTempPass(requestor: "REF", mvpd: "TempPass", device: "d", identity: nil) == 1)
        let fresh = try await service.startTempPass(requestor: "REF", clientID: "c", device: "d", mvpd: plain, sessionCode: "S4")
        #expect(fresh.notBefore == InMemoryStoreFixtures.startMilliseconds + 600_000)
    }

    @Test func aPromotionalPassFollowsItsIdentityAcrossDevicesAndCountsResources() async throws {
        let onPhone = try await service.startTempPass(
            requestor: "REF", clientID: "c", device: "phone", mvpd: promo, sessionCode: nil, identityHeader: identity)
        clock.advance(by: 60)
        let onTV = try await service.startTempPass(
            requestor: "REF", clientID: "c", device: "tv", mvpd: promo, sessionCode: nil, identityHeader: identity)
        #expect(onTV.nameId == onPhone.nameId && onTV.notAfter == onPhone.notAfter)

        #expect(try await passes.usePromoResource(passKey: onTV.nameId, resource: "r1", limit: 2, now: 0))
        #expect(try await service.promoMetadata(profile: onTV, mvpd: promo)["remaining_resources"] == ["1"])
        #expect(try await service.promoMetadata(profile: onTV, mvpd: plain).isEmpty)

        #expect(try await service.resetTempPass(requestor: "REF", mvpd: "Promo", device: nil, identity: #"{"email":"0123abcd"}"#) == 1)
        #expect(try await passes.promoResources(passKey: onTV.nameId).isEmpty)
    }

    @Test func aPromotionalPassNeedsAnIdentity() async throws {
        for header in [nil, "not base64!", Data("[]".utf8).base64EncodedString(), Data("{}".utf8).base64EncodedString()] {
            await InMemoryStoreFixtures.expect(.invalidTempPassIdentity) {
                try await service.startTempPass(requestor: "REF", clientID: "c", device: "d", mvpd: promo, sessionCode: nil, identityHeader: header)
            }
        }
        #expect(profiles.all.isEmpty)
    }

    @Test func resetsRefuseWhatDoesNotApplyWithAClearError() async throws {
        let cases: [(String, String?, String)] = [
            ("SAML", nil, "SAML is not a TempPass MVPD of REF."),
            ("Unknown", nil, "Unknown is not a TempPass MVPD of REF."),
            ("TempPass", "{}", "TempPass is a plain TempPass: reset by device or all."),
        ]
        for (mvpd, identity, message) in cases {
            let error = await #expect(throws: ConfigurationError.self) {
                try await service.resetTempPass(requestor: "REF", mvpd: mvpd, device: nil, identity: identity)
            }
            #expect(error?.description == message)
        }
    }
}
