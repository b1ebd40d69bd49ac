import EntitleCore
import Foundation
import X509

/// SP → IdP authentication request, sent with the HTTP-Redirect binding.
package struct AuthnRequest: Sendable, Equatable {
    /// Request ID, `_` + 32 hex digits; the Response's InResponseTo must echo it.
    package var id: String
    /// When the request was issued.
    package var issueInstant: Date
    /// The SP entityID.
    package var issuer: String
    /// The IdP SSO URL the request is sent to.
    package var destination: String
    /// Where the IdP must POST the Response; empty when a received request named none.
    package var assertionConsumerServiceURL: String
    /// Whether the IdP must re-authenticate the user.
    package var forceAuthn: Bool
    /// The proxied MVPD a proxy MVPD must sign the user in with (`<samlp:Scoping>`), nil for any other MVPD.
    package var scoping: Scoping? = nil

    /// `<samlp:Scoping>` of a request to a proxy MVPD (Adobe's proxy SAML integration): the proxied MVPD's
    /// `IDPEntry` (its ProviderID, else its id, and its display name) and the requestor as `RequesterID`.
    package struct Scoping: Sendable, Equatable {
        /// The proxied MVPD's ProviderID (else its id): the Issuer the proxy answers with.
        package var providerID: String
        /// The proxied MVPD's display name.
        package var name: String
        /// The requestor the user signs in for.
        package var requesterID: String

        /// Creates the value from each of its stored properties.
        package init(providerID: String, name: String, requesterID: String) {
            self.providerID = providerID
            self.name = name
            self.requesterID = requesterID
        }

        /// The element, last child of the AuthnRequest (SAML 2.0 core: after Subject, NameIDPolicy, Conditions,
        /// RequestedAuthnContext).
        var xml: String {
            "<samlp:Scoping><samlp:IDPList><samlp:IDPEntry ProviderID=\"\(XMLEscape.attribute(providerID))\""
                + " Name=\"\(XMLEscape.attribute(name))\"/></samlp:IDPList>"
                + "<samlp:RequesterID>\(XMLEscape.text(requesterID))</samlp:RequesterID></samlp:Scoping>"
        }
    }

    /// Creates a request.
    package init(
        id: String, issueInstant: Date, issuer: String, destination: String,
        assertionConsumerServiceURL: String, forceAuthn: Bool
    ) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.assertionConsumerServiceURL = assertionConsumerServiceURL
        self.forceAuthn = forceAuthn
    }

    /// A fresh unique SAML ID: `_` followed by 32 random hex digits (128 bits).
    package static func newID() -> String { samlNewID() }

    /// The `<samlp:AuthnRequest>` XML.
    package func xml() -> String {
        "<samlp:AuthnRequest xmlns:samlp=\"\(NS.protocol_)\" xmlns:saml=\"\(NS.assertion)\""
            + " ID=\"\(XMLEscape.attribute(id))\" Version=\"2.0\" IssueInstant=\"\(SAMLTime.format(issueInstant))\""
            + " Destination=\"\(XMLEscape.attribute(destination))\""
            + " AssertionConsumerServiceURL=\"\(XMLEscape.attribute(assertionConsumerServiceURL))\""
            + " ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\""
            + (forceAuthn ? " ForceAuthn=\"true\"" : "") + ">"
            + "<saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
            + "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified\" AllowCreate=\"true\"/>"
            + (scoping?.xml ?? "")
            + "</samlp:AuthnRequest>"
    }

    /// Full URL: destination + ?SAMLRequest=…&RelayState=…[&SigAlg=…&Signature=…] (signed when `signer` non-nil).
    package func redirectURL(relayState: String?, signer: SigningIdentity?) throws -> String {
        try RedirectBinding.url(
            destination: destination, parameter: "SAMLRequest", xml: xml(),
            relayState: relayState, signer: signer)
    }

    /// IdP side: decode from the (URL-decoded) query items of the redirect; verifies the redirect signature if
    /// `verifyWith` is non-empty.
    package static func fromRedirect(query: [String: String], verifyWith: [Certificate]) throws -> AuthnRequest {
        try parse(RedirectBinding.decode(query: query, parameter: "SAMLRequest", verifyWith: verifyWith))
    }

    /// IdP side: decode from the raw query string (preferred: the signature is checked over the exact bytes sent).
    package static func fromRedirect(rawQuery: String, verifyWith: [Certificate]) throws -> AuthnRequest {
        try parse(RedirectBinding.decode(rawQuery: rawQuery, parameter: "SAMLRequest", verifyWith: verifyWith))
    }

    /// Parses an `<samlp:AuthnRequest>` document (e.g. from the HTTP-POST binding; no signature check).
    package static func parse(xml: String) throws -> AuthnRequest {
        try parse(XMLDoc(string: xml))
    }

    static func parse(_ doc: XMLDoc) throws -> AuthnRequest {
        let root = doc.root
        guard root.isElement(NS.protocol_, "AuthnRequest") else { throw SAMLError.malformed("root is not samlp:AuthnRequest") }
        guard root.attribute("Version") == "2.0" else { throw SAMLError.malformed("AuthnRequest Version is not 2.0") }
        guard let id = root.attribute("ID"), !id.isEmpty else { throw SAMLError.missing("AuthnRequest has no ID") }
        guard let instant = root.attribute("IssueInstant").flatMap(SAMLTime.parse) else {
            throw SAMLError.missing("AuthnRequest has no valid IssueInstant")
        }
        guard let issuer = root.child(NS.assertion, "Issuer")?.trimmedText, !issuer.isEmpty else {
            throw SAMLError.missing("AuthnRequest has no Issuer")
        }
        let force = root.attribute("ForceAuthn")
        var request = AuthnRequest(
            id: id, issueInstant: instant, issuer: issuer,
            destination: root.attribute("Destination") ?? "",
            assertionConsumerServiceURL: root.attribute("AssertionConsumerServiceURL") ?? "",
            forceAuthn: force == "true" || force == "1")
        if let scoping = root.child(NS.protocol_, "Scoping"),
            let entry = scoping.child(NS.protocol_, "IDPList")?.child(NS.protocol_, "IDPEntry"), let provider = entry.attribute("ProviderID")
        {
            request.scoping = Scoping(
                providerID: provider, name: entry.attribute("Name") ?? "",
                requesterID: scoping.child(NS.protocol_, "RequesterID")?.trimmedText ?? "")
        }
        return request
    }
}

/// `_` + 32 lowercase hex digits from the system CSPRNG.
func samlNewID() -> String {
    var generator = SystemRandomNumberGenerator()
    let hex = Array("0123456789abcdef")
    return "_" + String((0..<32).map { _ in hex[Int.random(in: 0..<16, using: &generator)] })
}
