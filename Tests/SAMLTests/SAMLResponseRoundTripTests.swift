import Foundation
import Testing
@testable import SAML

@Suite struct SAMLResponseRoundTripTests {
    @Test func builderOutputValidates() throws {
        let base64 = try Fixture.builder.success(
            inResponseTo: Fixture.requestID, destination: Fixture.acsURL, audience: Fixture.spEntityID,
            nameID: "alice", sessionIndex: "S-42", attributes: ["household": ["H-1001"], "channels": ["news", "sports"]],
            now: Fixture.now, sessionNotOnOrAfter: Fixture.now.addingTimeInterval(3600))
        let result = try Fixture.validator().validate(
            base64Response: base64, expectedInResponseTo: Fixture.requestID,
            now: Fixture.now.addingTimeInterval(10))
        #expect(result.nameID == "alice")
        #expect(result.issuer == Fixture.idpEntityID)
        #expect(result.sessionIndex == "S-42")
        #expect(result.inResponseTo == Fixture.requestID)
        #expect(result.attributes == ["household": ["H-1001"], "channels": ["news", "sports"]])
        #expect(result.notOnOrAfter == Fixture.now.addingTimeInterval(300))
        #expect(result.sessionNotOnOrAfter == Fixture.now.addingTimeInterval(3600))
        #expect(result.assertionID.hasPrefix("_") && result.assertionID.count == 33)
        let peek = try peekResponse(base64Response: base64)
        #expect(peek.issuer == Fixture.idpEntityID)
        #expect(peek.inResponseTo == Fixture.requestID)
    }

    @Test func validatorFromMetadata() throws {
        let metadata = IdentityProviderMetadata(
            entityID: Fixture.idpEntityID, singleSignOnRedirectURL: "https://idp.example.com/sso",
            singleLogoutRedirectURL: nil, signingCertificates: [Fixture.idp.certificate])
        let validator = SAMLResponseValidator(
            identityProvider: metadata, spEntityID: Fixture.spEntityID,
            assertionConsumerServiceURL: Fixture.acsURL)
        #expect(Fixture.rejection(try Fixture.responseXML(), validator: validator) == nil)
        #expect(Fixture.rejection(try Fixture.responseXML(signer: Fixture.otherKey), validator: validator) == SAMLError.Code.badSignature)
    }

    @Test func specialCharactersSurviveSigning() throws {
        let base64 = try Fixture.builder.success(
            inResponseTo: Fixture.requestID, destination: Fixture.acsURL, audience: Fixture.spEntityID,
            nameID: "o'brien&<co>\"", sessionIndex: "S-1", attributes: ["note": ["a < b & c > d", "Zürich ✓"]],
            now: Fixture.now, sessionNotOnOrAfter: nil)
        let result = try Fixture.validator().validate(
            base64Response: base64, expectedInResponseTo: Fixture.requestID,
            now: Fixture.now)
        #expect(result.nameID == "o'brien&<co>\"")
        #expect(result.attributes["note"] == ["a < b & c > d", "Zürich ✓"])
        #expect(result.sessionNotOnOrAfter == nil)
    }

    @Test func keyRotationAcceptsAnyConfiguredCertificate() throws {
        let xml = try Fixture.responseXML()
        #expect(Fixture.rejection(xml, validator: Fixture.validator(certificates: [Fixture.otherKey.certificate, Fixture.idp.certificate])) == nil)
    }

    @Test func clockSkewIsTolerated() throws {
        let xml = try Fixture.responseXML()
        #expect(Fixture.rejection(xml, at: Fixture.now.addingTimeInterval(-100)) == nil)
        #expect(Fixture.rejection(xml, at: Fixture.now.addingTimeInterval(300 + 100)) == nil)
    }

    @Test func unsolicitedAcceptedWhenAllowed() throws {
        let xml = try Fixture.responseXML(inResponseTo: nil)
        var validator = Fixture.validator()
        validator.allowUnsolicited = true
        let result = try validator.validate(xml: xml, expectedInResponseTo: nil, now: Fixture.now)
        #expect(result.inResponseTo == nil)
        #expect(result.nameID == "alice")
    }

    @Test func assertionOnlySignatureIsAccepted() throws {
        let xml = try Fixture.sign(Fixture.responseXML(inner: Fixture.assertionXML(id: "_a1", signed: true)))
        #expect(Fixture.rejection(xml) == nil)
    }

    @Test func responseOnlySignatureCoversAssertion() throws {
        let xml = try Fixture.sign(Fixture.responseXML(signedID: "_resp1", inner: Fixture.assertionXML(id: "_a1", signed: false)))
        #expect(Fixture.rejection(xml) == nil)
    }

    @Test func failureResponseReportsStatus() throws {
        let base64 = try Fixture.builder.failure(
            inResponseTo: Fixture.requestID, destination: Fixture.acsURL,
            statusCode: SAMLStatus.authnFailed, message: "wrong password", now: Fixture.now)
        #expect(throws: SAMLError.self) {
            try Fixture.validator().validate(base64Response: base64, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        }
        do {
            _ = try Fixture.validator().validate(base64Response: base64, expectedInResponseTo: Fixture.requestID, now: Fixture.now)
        } catch let error as SAMLError {
            #expect(error.code == SAMLError.Code.statusNotSuccess)
            #expect(error.message.contains(SAMLStatus.responder))
            #expect(error.message.contains(SAMLStatus.authnFailed))
            #expect(error.message.contains("wrong password"))
        }
    }

    @Test func timeFormatRoundTrips() {
        #expect(SAMLTime.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(SAMLTime.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(SAMLTime.parse("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
        #expect(SAMLTime.parse("2000-02-29T01:30:00.500+01:30") == Date(timeIntervalSince1970: 951_782_400.5))
        #expect(SAMLTime.parse("2000-02-29T00:00:00") == Date(timeIntervalSince1970: 951_782_400))
        #expect(SAMLTime.parse("2000-02-29 00:00:00Z") == nil)
        #expect(SAMLTime.parse("2000-13-01T00:00:00Z") == nil)
        #expect(SAMLTime.parse(SAMLTime.format(Fixture.now)) == Fixture.now)
    }
}
