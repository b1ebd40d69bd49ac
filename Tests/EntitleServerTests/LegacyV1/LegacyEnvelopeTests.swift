import EntitleTesting
import Foundation
import Testing

/// The REST v1 and adobe-services route groups read a call's parameters and format once and render every failure of
/// the group — the caller check of ``LegacyCallerMiddleware`` included — in that protocol's document: v1 in the format
/// negotiated from the query or the form body, adobe-services always in its own format.
@Suite struct LegacyEnvelopeTests {
    @Test func aRefusedCallerIsAnsweredInTheFormatTheCallAskedFor() async throws {
        try await LocalService.run { host in
            let anonymous = LegacyV1Client(host: host, identity: .none, deviceID: "box")
            // POST: `format` in the form body.
            let json = try await anonymous.call(.POST, "/reggie/v1/REF/regcode", [("deviceId", "box")], format: "json")
            #expect(json.status == 401)
            #expect(json.headers.first(name: "Content-Type") == "application/json")
            #expect(json.code == "missing_authentication_header", "\(json.text)")
            // GET: `format` in the query.
            let xml = try await anonymous.call(.GET, "/api/v1/tokens/authn", [("requestor", "REF"), ("deviceId", "box")], format: "xml")
            #expect(xml.status == 401)
            #expect(xml.headers.first(name: "Content-Type") == "application/xml")
            #expect(xml.xml("code") == "missing_authentication_header", "\(xml.text)")
            // A bad format is refused before the caller is looked at.
            let bad = try await anonymous.call(.GET, "/api/v1/tokens/authn", [("requestor", "REF"), ("deviceId", "box")], format: "yaml")
            #expect(bad.status == 400)
            #expect(bad.xml("code") == "invalid_request", "\(bad.text)")
        }
    }

    @Test func adobeServicesAnswerInTheirOwnFormatWhateverIsAsked() async throws {
        try await LocalService.run { host in
            let anonymous = LegacyV1Client(host: host, identity: .none, deviceID: "box")
            let session = try await anonymous.call(
                .POST, "/adobe-services/sessionDevice", [("requestor_id", "REF"), ("device_id", "box")], format: "json")
            #expect(session.status == 401)
            #expect(session.headers.first(name: "Content-Type") == "application/xml")
            #expect(session.xml("code") == "missing_authentication_header", "\(session.text)")
            let metadata = try await anonymous.call(.POST, "/adobe-services/usermetadata", [("requestor_id", "REF")], format: "xml")
            #expect(metadata.status == 401)
            #expect(metadata.code == "missing_authentication_header", "\(metadata.text)")
            let config = try await anonymous.call(.GET, "/adobe-services/config/NOPE", format: nil)
            #expect(config.status == 400)
            #expect(config.xml("code") == "invalid_requestor", "\(config.text)")
        }
    }
}
