import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// The SDK with an OAuth 2.0 MVPD (DemoStream): nothing changes for the app — sign-in, an object-valued `maxRating`
/// (which the SDK decodes instead of failing the profile), authorization and logout.
@Suite struct SDKOAuth2MVPDTests {
    @Test func erinSignsInWithDemoStreamAndMaxRatingIsAnObject() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn(mvpd: "DemoStream", user: "erin")
            let rating = try await app.enabler.userMetadata("maxRating")
            #expect(rating.value == .object(["VCHIP": .string("TV-MA")]) && rating.encrypted == false)
            #expect(try await app.enabler.userMetadata("userID").value == .string("dst-erin-93c1"))
            app.enabler.getAuthorization("movies")
            try await app.waitFor("setToken(movies)")
        }
    }
}
