import EntitleCore
import Foundation
import Testing

@testable import SAML

/// `AuthnRequest.fromPOST`: the IdP side of the HTTP-POST binding (Base64 XML, enveloped signature).
@Suite struct POSTBindingRequestTests {
    private func request() -> AuthnRequest {
        AuthnRequest(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.spEntityID,
            destination: "https://idp.example.com/sso", assertionConsumerServiceURL: Fixture.acsURL, forceAuthn: false)
    }

    private func code(_ value: String, _ certificates: [Certificate]) -> SAMLError.Code? {
        do {
            _ = try AuthnRequest.fromPOST(samlRequest: value, verifyWith: certificates)
            return nil
        } catch let error as SAMLError {
            return error.code
        } catch {
            return SAMLError.Code(rawValue: "other")
        }
    }

    private func xml(_ value: String) -> String { String(decoding: Data(base64Encoded: value) ?? Data(), as: UTF8.self) }

    @Test func aSignedRequestRoundTripsAndVerifies() throws {
        let original = request()
        let value = try original.postBindingValue(signer: Fixture.sp)
        #expect(try AuthnRequest.fromPOST(samlRequest: value, verifyWith: [Fixture.sp.certificate]) == original)
        // Without certificates to check against, the request is only decoded.
        #expect(try AuthnRequest.fromPOST(samlRequest: try original.postBindingValue(signer: nil), verifyWith: []) == original)
    }

    @Test func unsignedForgedAndAlteredRequestsAreRefused() throws {
        let certificates = [Fixture.sp.certificate]
        #expect(code(try request().postBindingValue(signer: nil), certificates) == .unsigned)
        #expect(code(try request().postBindingValue(signer: Fixture.otherKey), certificates) == .badSignature)
        let signed = xml(try request().postBindingValue(signer: Fixture.sp))
        let altered = signed.replacingOccurrences(of: "AllowCreate=\"true\"", with: "AllowCreate=\"false\"")
        #expect(altered != signed)
        #expect(code(Data(altered.utf8).base64EncodedString(), certificates) == .badDigest)
    }

    @Test func aSignatureThatIsNotTheRequestsOwnIsRefused() throws {
        // The signature moved inside NameIDPolicy's sibling position under a new child element: not a child of the
        // AuthnRequest any more.
        let signed = xml(try request().postBindingValue(signer: Fixture.sp))
        let start = try #require(signed.range(of: "<ds:Signature"))
        let end = try #require(signed.range(of: "</ds:Signature>"))
        let signature = String(signed[start.lowerBound..<end.upperBound])
        var moved = signed.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        moved = moved.replacingOccurrences(
            of: "</samlp:AuthnRequest>", with: "<samlp:Extensions>\(signature)</samlp:Extensions></samlp:AuthnRequest>")
        #expect(code(Data(moved.utf8).base64EncodedString(), [Fixture.sp.certificate]) == .badSignature)
        // Two signatures.
        let doubled = signed.replacingOccurrences(of: "</samlp:AuthnRequest>", with: "\(signature)</samlp:AuthnRequest>")
        #expect(code(Data(doubled.utf8).base64EncodedString(), [Fixture.sp.certificate]) == .badSignature)
    }

    @Test func badEncodingsAndOversizedValuesAreRefused() {
        #expect(code("not base64!!", []) == .badEncoding)
        #expect(code("", []) == .badEncoding)
        #expect(code(String(repeating: "A", count: SAMLResponseValidator.maxBase64Length + 4), []) == .tooLarge)
        #expect(code(Data("<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\"/>".utf8).base64EncodedString(), []) != nil)
    }
}
