import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// User metadata an MVPD adds when it authorizes (its permit's `maxRating`, saved in the service's profile) reaches
/// `getMetadata` after that authorization, without a new `setRequestor` (issue 39 point 5).
@Suite struct EngineAuthorizationMetadataTests {
    @Test func metadataAddedAtAuthorizationIsSeenByGetMetadataAtOnce() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        // The sign-in's rating; the MVPD's permit brings another, which the service saves in the profile.
        #expect(try await harness.enabler.userMetadata("maxRating").value == .string("TV-MA"))
        harness.service.update {
            $0.profiles["DemoCable"]?.attributes["maxRating"] = ProfileAttribute(value: .object(["VCHIP": .string("TV-14")]))
        }
        #expect(try await harness.enabler.userMetadata("maxRating").value == .string("TV-MA"), "not before the authorization")
        _ = try await harness.enabler.authorize("news")
        #expect(try await harness.enabler.userMetadata("maxRating").value == .object(["VCHIP": .string("TV-14")]))
        #expect(try await harness.enabler.userMetadata("householdID").value == .string("H-1001"))
        #expect(harness.service.requests(matching: "/profiles/DemoCable").count >= 1)

        // A denial changes nothing; a profile of another sign-in (a newer notBefore) is not taken for this one.
        harness.service.update { state in
            state.profiles["DemoCable"]?.attributes["maxRating"] = ProfileAttribute(value: .string("TV-Y"))
            state.profiles["DemoCable"]?.notBefore += 1
        }
        await #expect(throws: AccessEnablerError.self) { try await harness.enabler.authorize("movies") }
        _ = try await harness.enabler.authorize("news")
        #expect(try await harness.enabler.userMetadata("maxRating").value == .object(["VCHIP": .string("TV-14")]))
    }
}
