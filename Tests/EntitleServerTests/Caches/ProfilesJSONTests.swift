import EntitleCore
import Foundation
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// The profiles answer assembled from each profile's kept JSON is exactly what the general encoder writes.
@Suite struct ProfilesJSONTests {
    static func profile(_ issuer: String, attributes: [String: ProfileAttribute] = [:]) -> Profile {
        Profile(notBefore: 1_700_000_000_000, notAfter: 1_700_086_400_000, issuer: issuer, type: .regular, attributes: attributes)
    }

    @Test func answersAreByteForByteTheGeneralEncoders() {
        let attributes: [String: ProfileAttribute] = [
            "userID": ProfileAttribute(value: .string("u/1 \"é\" 😀\u{1}")),
            "maxRating": ProfileAttribute(value: .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")])),
            "channelID": ProfileAttribute(value: .array([.string("news"), .string("sports")])),
            "zip": ProfileAttribute(value: .string("Base64+/=="), state: .encrypted),
        ]
        let cases: [[String: Profile]] = [
            [:],
            ["DemoCable": Self.profile("DemoCable")],
            [
                "DemoCable": Self.profile("DemoCable", attributes: attributes), "ATT": Self.profile("ATT"), "att": Self.profile("att"),
                "a10": Self.profile("a10"), "a2": Self.profile("a2"), "Comcast_SSO": Self.profile("Comcast_SSO"),
                "demo-cable": Self.profile("demo-cable"), "é": Self.profile("é"), "_x": Self.profile("_x"),
            ],
        ]
        for profiles in cases {
            let general = String(decoding: JSONCoding.encode(ProfilesResponse(profiles: profiles)), as: UTF8.self)
            let fast = String(decoding: ProfilesJSON.encode(profiles.mapValues(WireProfile.init)), as: UTF8.self)
            #expect(fast == general)
        }
    }
}
