import Crypto
import _CryptoExtras
import EntitleCore
import Foundation
import Testing
@testable import SAML

@Suite struct RedirectBindingTests {
    private func request() -> AuthnRequest {
        AuthnRequest(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.spEntityID,
            destination: "https://idp.example.com/sso?tenant=1", assertionConsumerServiceURL: Fixture.acsURL,
            forceAuthn: true)
    }

    /// URL-decoded query items, as an HTTP framework would hand them over.
    private func queryItems(_ url: String) -> [String: String] {
        var items: [String: String] = [:]
        for item in URLComponents(string: url)?.percentEncodedQueryItems ?? [] {
            items[item.name] = item.value.flatMap { $0.removingPercentEncoding }
        }
        return items
    }

    private func rawQuery(_ url: String) -> String { URLComponents(string: url)?.percentEncodedQuery ?? "" }

    @Test func newIDsAreUniqueAndWellFormed() {
        let ids = (0..<200).map { _ in AuthnRequest.newID() }
        #expect(Set(ids).count == 200)
        #expect(ids.allSatisfy { $0.count == 33 && $0.hasPrefix("_") && $0.dropFirst().allSatisfy(\.isHexDigit) })
    }

    @Test func signedAuthnRequestRoundTrips() throws {
        let original = request()
        let url = try original.redirectURL(relayState: "state with spaces & symbols/+=", signer: Fixture.sp)
        #expect(url.hasPrefix("https://idp.example.com/sso?tenant=1&SAMLRequest="))
        let query = queryItems(url)
        #expect(query["SigAlg"] == "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
        #expect(query["RelayState"] == "state with spaces & symbols/+=")
        let decoded = try AuthnRequest.fromRedirect(query: query, verifyWith: [Fixture.sp.certificate])
        #expect(decoded == original)
        let fromRaw = try AuthnRequest.fromRedirect(rawQuery: rawQuery(url), verifyWith: [Fixture.sp.certificate])
        #expect(fromRaw == original)
    }

    @Test func unsignedRequestDecodesWithoutVerificationButNotWithIt() throws {
        let url = try request().redirectURL(relayState: nil, signer: nil)
        #expect(!url.contains("Signature="))
        #expect(try AuthnRequest.fromRedirect(query: queryItems(url), verifyWith: []).forceAuthn)
        #expect(throws: SAMLError(.unsigned, "redirect binding message is not signed")) {
            try AuthnRequest.fromRedirect(query: queryItems(url), verifyWith: [Fixture.sp.certificate])
        }
    }

    @Test func tamperedRedirectSignatureIsRejected() throws {
        let url = try request().redirectURL(relayState: "r1", signer: Fixture.sp)
        var query = queryItems(url)
        query["RelayState"] = "r2"
        #expect(throws: SAMLError.self) { try AuthnRequest.fromRedirect(query: query, verifyWith: [Fixture.sp.certificate]) }
        do {
            _ = try AuthnRequest.fromRedirect(query: query, verifyWith: [Fixture.sp.certificate])
        } catch let error as SAMLError {
            #expect(error.code == SAMLError.Code.badSignature)
        }
        // Another request's message under the first signature.
        var swapped = queryItems(url)
        swapped["SAMLRequest"] = queryItems(try request().redirectURL(relayState: "r1", signer: nil))["SAMLRequest"]
        #expect(throws: SAMLError.self) { try AuthnRequest.fromRedirect(query: swapped, verifyWith: [Fixture.sp.certificate]) }
        // Right signature, wrong key.
        #expect(throws: SAMLError.self) {
            try AuthnRequest.fromRedirect(rawQuery: rawQuery(url), verifyWith: [Fixture.otherKey.certificate])
        }
        let rawTampered = rawQuery(url).replacingOccurrences(of: "RelayState=r1", with: "RelayState=r3")
        #expect(throws: SAMLError.self) {
            try AuthnRequest.fromRedirect(rawQuery: rawTampered, verifyWith: [Fixture.sp.certificate])
        }
    }

    @Test func sha1SigAlgIsUnsupported() throws {
        let url = try request().redirectURL(relayState: nil, signer: Fixture.sp)
        var query = queryItems(url)
        query["SigAlg"] = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
        do {
            _ = try AuthnRequest.fromRedirect(query: query, verifyWith: [Fixture.sp.certificate])
            Issue.record("accepted sha1")
        } catch let error as SAMLError {
            #expect(error.code == SAMLError.Code.unsupportedAlgorithm)
        }
    }

    @Test func lowercasePercentEncodingFromOtherSPsVerifies() throws {
        // Some stacks (.NET) emit lower-case escapes; the signature covers those exact bytes.
        let xml = request().xml()
        let message = Data(try RedirectBinding.deflate(Array(xml.utf8))).base64EncodedString()
        var signed = "SAMLRequest=\(FormURLEncoding.escape(message, lowercaseHex: true))"
        signed += "&SigAlg=\(FormURLEncoding.escape(DSAlgorithm.rsaSHA256, lowercaseHex: true))"
        let signature = try Fixture.sp.privateKey.signature(for: Array(signed.utf8), padding: .insecurePKCS1v1_5)
        let raw = signed + "&Signature=" + FormURLEncoding.escape(signature.rawRepresentation.base64EncodedString(), lowercaseHex: true)
        #expect(try AuthnRequest.fromRedirect(rawQuery: raw, verifyWith: [Fixture.sp.certificate]).issuer == Fixture.spEntityID)
        let items = Dictionary(
            uniqueKeysWithValues: raw.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), FormURLEncoding.decode(parts[1])!)
            })
        #expect(try AuthnRequest.fromRedirect(query: items, verifyWith: [Fixture.sp.certificate]).issuer == Fixture.spEntityID)
    }

    @Test func brokenEncodingsAreRejected() throws {
        for query in [["SAMLRequest": "***"], ["SAMLRequest": Data("not deflate".utf8).base64EncodedString()], [:]] {
            #expect(throws: SAMLError.self) { try AuthnRequest.fromRedirect(query: query, verifyWith: []) }
        }
    }

    @Test func inflationIsCapped() throws {
        let bomb = try RedirectBinding.deflate([UInt8](repeating: 0x20, count: 300 * 1024))
        let query = ["SAMLRequest": Data(bomb).base64EncodedString()]
        do {
            _ = try AuthnRequest.fromRedirect(query: query, verifyWith: [])
            Issue.record("accepted")
        } catch let error as SAMLError {
            #expect(error.code == SAMLError.Code.tooLarge)
        }
    }

    @Test func deflateRoundTripsLargeInput() throws {
        let input = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        #expect(try RedirectBinding.inflate(RedirectBinding.deflate(input), limit: 200_000) == input)
    }

    @Test func logoutRequestAndResponseRoundTrip() throws {
        let logout = LogoutRequest(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.spEntityID,
            destination: "https://idp.example.com/slo", nameID: "carol", sessionIndex: "S-9")
        let url = try logout.redirectURL(relayState: "back", signer: Fixture.sp)
        #expect(try LogoutRequest.fromRedirect(query: queryItems(url), verifyWith: [Fixture.sp.certificate]) == logout)
        #expect(try LogoutRequest.fromRedirect(rawQuery: rawQuery(url), verifyWith: [Fixture.sp.certificate]) == logout)
        #expect(throws: SAMLError.self) {
            try LogoutRequest.fromRedirect(query: queryItems(url), verifyWith: [Fixture.otherKey.certificate])
        }

        let answer = LogoutResponse(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.idpEntityID,
            destination: "https://entitle.example.com/sp/slo", inResponseTo: logout.id, success: true)
        let answerURL = try answer.redirectURL(relayState: "back", signer: Fixture.idp)
        #expect(queryItems(answerURL)["SAMLResponse"] != nil)
        #expect(try LogoutResponse.fromRedirect(query: queryItems(answerURL), verifyWith: [Fixture.idp.certificate]) == answer)
        var failed = answer
        failed.success = false
        let failedURL = try failed.redirectURL(relayState: nil, signer: nil)
        #expect(try LogoutResponse.fromRedirect(rawQuery: rawQuery(failedURL), verifyWith: []).success == false)
        // A LogoutResponse is not an AuthnRequest.
        #expect(throws: SAMLError.self) {
            try AuthnRequest.fromRedirect(query: ["SAMLRequest": queryItems(answerURL)["SAMLResponse"]!], verifyWith: [])
        }
    }
}

@Suite struct RedirectBindingToleranceTests {
    @Test func unescapedPlusDecodedAsSpaceIsTolerated() throws {
        let request = AuthnRequest(
            id: "_abc", issueInstant: Fixture.now, issuer: Fixture.spEntityID,
            destination: "https://idp.example.com/sso", assertionConsumerServiceURL: Fixture.acsURL,
            forceAuthn: false)
        // Find a message whose base64 contains '+', as a sloppy sender would leave it unescaped.
        var message = ""
        for n in 0..<200 {
            var r = request
            r.id = "_abc\(n)"
            message = Data(try RedirectBinding.deflate(Array(r.xml().utf8))).base64EncodedString()
            if message.contains("+") { break }
        }
        #expect(message.contains("+"))
        let decoded = try AuthnRequest.fromRedirect(query: ["SAMLRequest": message.replacingOccurrences(of: "+", with: " ")], verifyWith: [])
        #expect(decoded.issuer == Fixture.spEntityID)
    }
}

/// A legacy IdP signs its redirect-binding LogoutResponse with RSA-SHA1: refused unless the operator allowed SHA-1 for
/// that MVPD (as for its assertions), and even then only with the IdP's own key.
@Suite struct RedirectBindingSHA1Tests {
    /// `SAMLResponse=…&RelayState=…&SigAlg=rsa-sha1&Signature=…`, signed by `signer` over SHA-1.
    private func sha1SignedQuery(_ response: LogoutResponse, signer: SigningIdentity) throws -> [String: String] {
        let encoded = Data(try RedirectBinding.deflate(Array(response.xml().utf8))).base64EncodedString()
        let signed = "SAMLResponse=\(FormURLEncoding.escape(encoded))&RelayState=back&SigAlg=\(FormURLEncoding.escape(DSAlgorithm.rsaSHA1))"
        let signature = try signer.privateKey.signature(for: Insecure.SHA1.hash(data: Array(signed.utf8)), padding: .insecurePKCS1v1_5)
        return [
            "SAMLResponse": encoded, "RelayState": "back", "SigAlg": DSAlgorithm.rsaSHA1,
            "Signature": signature.rawRepresentation.base64EncodedString(),
        ]
    }

    @Test func rsaSHA1CountsOnlyWhenAllowedAndOnlyWithTheIdPsKey() throws {
        let answer = LogoutResponse(
            id: AuthnRequest.newID(), issueInstant: Fixture.now, issuer: Fixture.idpEntityID,
            destination: "https://entitle.example.com/sp/slo", inResponseTo: "_request", success: true)
        let query = try sha1SignedQuery(answer, signer: Fixture.idp)
        #expect(throws: SAMLError.self) { try LogoutResponse.fromRedirect(query: query, verifyWith: [Fixture.idp.certificate]) }
        #expect(try LogoutResponse.fromRedirect(query: query, verifyWith: [Fixture.idp.certificate], allowSHA1: true) == answer)
        let forged = try sha1SignedQuery(answer, signer: Fixture.otherKey)
        #expect(throws: SAMLError.self) {
            try LogoutResponse.fromRedirect(query: forged, verifyWith: [Fixture.idp.certificate], allowSHA1: true)
        }
    }
}
