import EntitleCore
import Foundation
import SAML
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// Object-valued user metadata (`maxRating` `{"MPAA": …, "VCHIP": …}`): built from several SAML attributes or userinfo
/// claims by a `PARENT.CHILD` mapping, or taken as an object claim; stored as JSON text and sent as the object.
@Suite struct UserMetadataObjectTests {
    @Test func parentChildKeysBuildOneObject() throws {
        let mapping = SAMLAttributeMapping(
            try SAMLAttributeMapping.parse(["maxRating.MPAA=MaxMovieRating", "maxRating.VCHIP=MaxTVRating", "zip=postal"]))
        let mapped = mapping.map(
            ["MaxMovieRating": JSONValue.string("nc-17"), "MaxTVRating": .string("tv-ma"), "postal": .string("10001"), "a.b": .string("kept")],
            nameID: .string("u"))
        let grouped = mapping.grouped(mapped)
        #expect(grouped["maxRating"] == .object(["MPAA": .string("nc-17"), "VCHIP": .string("tv-ma")]))
        #expect(grouped["zip"] == .string("10001"))
        #expect(grouped["a.b"] == .string("kept"))  // an attribute's own dotted name is not a mapping
        #expect(grouped["maxRating.MPAA"] == nil)
    }

    @Test func objectValuedMetadataIsStoredAsJSONAndSentAsTheObject() throws {
        let stored = UserMetadataEncoder.stored([
            "maxRating": .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]), "channels": .array([.string("news")]),
            "age": .number(42), "adult": .bool(true), "zip": .string("02134"),
        ])
        #expect(stored["@json"] == ["maxRating"])
        #expect(stored["channels"] == ["news"] && stored["age"] == ["42"] && stored["adult"] == ["true"] && stored["zip"] == ["02134"])
        let record = ProfileRecord(
            requestorId: "REF", clientId: "c", deviceId: "d", mvpdId: "M", type: .regular, issuer: "M", notBefore: 0, notAfter: 1,
            attributes: JSONText.encode(stored), nameId: "u", sessionIndex: nil, sessionCode: nil, userId: "u")
        let requestor = RequestorRecord(id: "REF", name: "R", domains: [], maxResources: 5, metadataCertificatePem: nil)
        let profile = UserMetadataEncoder(requestor: requestor, mvpd: nil).profile(record)
        #expect(profile.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]))
        #expect(profile.attributes["@json"] == nil)
        // The wire form decodes back to the object (the SDK's decoding).
        let wire = try JSONEncoder().encode(profile)
        let decoded = try JSONDecoder().decode(Profile.self, from: wire)
        #expect(decoded.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]))
    }
}
