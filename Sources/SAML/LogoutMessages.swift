import CLibXML2
import EntitleCore
import Foundation
import X509

/// Single Logout request over the HTTP-Redirect binding (signed query string).
package struct LogoutRequest: Sendable, Equatable {
    /// Request ID (`AuthnRequest.newID()`).
    package var id: String
    /// When the request was issued.
    package var issueInstant: Date
    /// EntityID of the sender.
    package var issuer: String
    /// SLO URL of the receiver.
    package var destination: String
    /// The NameID whose session ends.
    package var nameID: String
    /// The session (AuthnStatement SessionIndex) that ends; nil = all sessions of `nameID`.
    package var sessionIndex: String?
    /// The NameID's `NameQualifier`: the entity id that issued it, sent to a proxy MVPD for a proxied MVPD's sign-in
    /// (the proxied MVPD's entity id, as its assertion named it); none when nil.
    package var nameQualifier: String? = nil

    /// Creates a request.
    package init(id: String, issueInstant: Date, issuer: String, destination: String, nameID: String, sessionIndex: String?) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.nameID = nameID
        self.sessionIndex = sessionIndex
    }

    /// The `<samlp:LogoutRequest>` XML.
    package func xml() -> String {
        "<samlp:LogoutRequest xmlns:samlp=\"\(NS.protocol_)\" xmlns:saml=\"\(NS.assertion)\" ID=\"\(XMLEscape.attribute(id))\""
            + " Version=\"2.0\" IssueInstant=\"\(SAMLTime.format(issueInstant))\" Destination=\"\(XMLEscape.attribute(destination))\">"
            + "<saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer><saml:NameID"
            + (nameQualifier.map { " NameQualifier=\"\(XMLEscape.attribute($0))\"" } ?? "") + ">\(XMLEscape.attribute(nameID))</saml:NameID>"
            + (sessionIndex.map { "<samlp:SessionIndex>\(XMLEscape.attribute($0))</samlp:SessionIndex>" } ?? "")
            + "</samlp:LogoutRequest>"
    }

    /// Full redirect URL with `SAMLRequest` (signed when `signer` is non-nil).
    package func redirectURL(relayState: String?, signer: SigningIdentity?) throws -> String {
        try RedirectBinding.url(
            destination: destination, parameter: "SAMLRequest", xml: xml(),
            relayState: relayState, signer: signer)
    }

    /// Decodes from URL-decoded query items; verifies the redirect signature when `verifyWith` is non-empty.
    package static func fromRedirect(query: [String: String], verifyWith: [Certificate]) throws -> LogoutRequest {
        try parse(RedirectBinding.decode(query: query, parameter: "SAMLRequest", verifyWith: verifyWith))
    }

    /// Decodes from the raw query string (signature checked over the exact bytes sent).
    package static func fromRedirect(rawQuery: String, verifyWith: [Certificate]) throws -> LogoutRequest {
        try parse(RedirectBinding.decode(rawQuery: rawQuery, parameter: "SAMLRequest", verifyWith: verifyWith))
    }

    static func parse(_ doc: XMLDoc) throws -> LogoutRequest {
        let root = doc.root
        guard root.isElement(NS.protocol_, "LogoutRequest") else { throw SAMLError.malformed("root is not samlp:LogoutRequest") }
        let common = try MessageHeader(root)
        guard let nameIDNode = root.child(NS.assertion, "NameID"), !nameIDNode.trimmedText.isEmpty else {
            throw SAMLError.missing("LogoutRequest has no NameID")
        }
        let nameID = nameIDNode.trimmedText
        var request = LogoutRequest(
            id: common.id, issueInstant: common.issueInstant, issuer: common.issuer,
            destination: common.destination, nameID: nameID,
            sessionIndex: root.child(NS.protocol_, "SessionIndex")?.trimmedText)
        request.nameQualifier = nameIDNode.attribute("NameQualifier")
        return request
    }
}

/// Single Logout response over the HTTP-Redirect binding (signed query string).
package struct LogoutResponse: Sendable, Equatable {
    /// Response ID.
    package var id: String
    /// When the response was issued.
    package var issueInstant: Date
    /// EntityID of the sender.
    package var issuer: String
    /// SLO URL of the receiver.
    package var destination: String
    /// ID of the LogoutRequest answered.
    package var inResponseTo: String
    /// Whether the status is Success.
    package var success: Bool

    /// Creates a response.
    package init(id: String, issueInstant: Date, issuer: String, destination: String, inResponseTo: String, success: Bool) {
        self.id = id
        self.issueInstant = issueInstant
        self.issuer = issuer
        self.destination = destination
        self.inResponseTo = inResponseTo
        self.success = success
    }

    /// The `<samlp:LogoutResponse>` XML.
    package func xml() -> String {
        "<samlp:LogoutResponse xmlns:samlp=\"\(NS.protocol_)\" xmlns:saml=\"\(NS.assertion)\" ID=\"\(XMLEscape.attribute(id))\""
            + " Version=\"2.0\" IssueInstant=\"\(SAMLTime.format(issueInstant))\" Destination=\"\(XMLEscape.attribute(destination))\""
            + " InResponseTo=\"\(XMLEscape.attribute(inResponseTo))\"><saml:Issuer>\(XMLEscape.attribute(issuer))</saml:Issuer>"
            + SAMLStatus.xml(code: success ? SAMLStatus.success : SAMLStatus.responder, message: nil)
            + "</samlp:LogoutResponse>"
    }

    /// Full redirect URL with `SAMLResponse` (signed when `signer` is non-nil).
    package func redirectURL(relayState: String?, signer: SigningIdentity?) throws -> String {
        try RedirectBinding.url(
            destination: destination, parameter: "SAMLResponse", xml: xml(),
            relayState: relayState, signer: signer)
    }

    /// Decodes from URL-decoded query items; verifies the redirect signature when `verifyWith` is non-empty (RSA-SHA1
    /// only with `allowSHA1`).
    package static func fromRedirect(query: [String: String], verifyWith: [Certificate], allowSHA1: Bool = false) throws -> LogoutResponse {
        try parse(RedirectBinding.decode(query: query, parameter: "SAMLResponse", verifyWith: verifyWith, allowSHA1: allowSHA1))
    }

    /// Decodes from the raw query string (signature checked over the exact bytes sent).
    package static func fromRedirect(rawQuery: String, verifyWith: [Certificate]) throws -> LogoutResponse {
        try parse(RedirectBinding.decode(rawQuery: rawQuery, parameter: "SAMLResponse", verifyWith: verifyWith))
    }

    static func parse(_ doc: XMLDoc) throws -> LogoutResponse {
        let root = doc.root
        guard root.isElement(NS.protocol_, "LogoutResponse") else { throw SAMLError.malformed("root is not samlp:LogoutResponse") }
        let common = try MessageHeader(root)
        guard let inResponseTo = root.attribute("InResponseTo"), !inResponseTo.isEmpty else {
            throw SAMLError.missing("LogoutResponse has no InResponseTo")
        }
        let status = root.child(NS.protocol_, "Status")?.child(NS.protocol_, "StatusCode")?.attribute("Value")
        guard let status else { throw SAMLError.missing("LogoutResponse has no Status") }
        return LogoutResponse(
            id: common.id, issueInstant: common.issueInstant, issuer: common.issuer,
            destination: common.destination, inResponseTo: inResponseTo,
            success: status == SAMLStatus.success)
    }
}

/// ID, Version, IssueInstant, Destination and Issuer shared by SAML protocol messages.
struct MessageHeader {
    let id: String
    let issueInstant: Date
    let issuer: String
    let destination: String

    init(_ root: xmlNodePtr) throws {
        guard root.attribute("Version") == "2.0" else { throw SAMLError.malformed("message Version is not 2.0") }
        guard let id = root.attribute("ID"), !id.isEmpty else { throw SAMLError.missing("message has no ID") }
        guard let instant = root.attribute("IssueInstant").flatMap(SAMLTime.parse) else {
            throw SAMLError.missing("message has no valid IssueInstant")
        }
        guard let issuer = root.child(NS.assertion, "Issuer")?.trimmedText, !issuer.isEmpty else {
            throw SAMLError.missing("message has no Issuer")
        }
        self.id = id
        self.issueInstant = instant
        self.issuer = issuer
        self.destination = root.attribute("Destination") ?? ""
    }
}
