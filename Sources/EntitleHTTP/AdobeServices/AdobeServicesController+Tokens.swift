import _CryptoExtras
import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import SAML

/// The AuthN and AuthZ tokens of the adobe-services protocol (protocol notes §6.1, §6.2):
/// `<signatureInfo>SIG<signatureInfo><simpleAuthenticationToken>…` with SIG = Base64 of Entitle's RSA-SHA256
/// signature (the media-token key) over the body. The service trusts a token only through its GUID, a random
/// 128-bit value recorded when the token was issued; the signature keeps Adobe's format.
package enum AdobeTokenXML {
    /// `yyyy/MM/dd HH:mm:ss GMT +0000` (UTC).
    package static func date(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy/MM/dd HH:mm:ss 'GMT' Z"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// `<name>escaped value</name>`.
    package static func element(_ name: String, _ value: String) -> String { "<\(name)>\(XMLEscape.html(value))</\(name)>" }

    /// The text of the first `<name>` element of `text`, unescaped; nil when absent.
    package static func value(of name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else {
            return nil
        }
        return XMLEscape.unescape(String(text[start.upperBound..<end.lowerBound]))
    }

    /// The hash of a device id that tokens carry as `simpleTokenFingerprint` (40 hex, SHA-1-sized as Adobe's).
    package static func fingerprint(_ device: String) -> String { String(Secrets.sha256Hex(device).prefix(40)) }
}

extension AdobeServicesController {
    /// `<signatureInfo>` + Base64(RSA PKCS#1 v1.5 SHA-256 over `body`) + `<signatureInfo>` + `body`.
    package func signAdobeToken(body: String) async throws -> String {
        let identity = try await keys.signingIdentity(purpose: KeyPurpose.mediaToken)
        let signature = try identity.privateKey.signature(for: Data(body.utf8), padding: .insecurePKCS1v1_5)
        return "<signatureInfo>" + signature.rawRepresentation.base64EncodedString() + "<signatureInfo>" + body
    }

    /// Issues the AuthN token of a profile (§6.1) and records its GUID.
    package func issueAuthnToken(profile: ProfileRecord, domain: String?) async throws -> String {
        let guid = Secrets.randomHex(bytes: 16)
        try await legacy.insertAdobeToken(
            AdobeTokenRecord(
                guid: guid, requestorId: profile.requestorId, clientId: profile.clientId, deviceId: profile.deviceId, mvpdId: profile.mvpdId,
                profileNotBefore: profile.notBefore, expiresAt: profile.notAfter), now: now)
        var body = "<simpleAuthenticationToken>" + AdobeTokenXML.element("simpleTokenAuthenticationGuid", guid)
        if let index = profile.sessionIndex { body += AdobeTokenXML.element("simpleSamlSessionIndex", index) }
        body +=
            AdobeTokenXML.element("simpleTokenRequestorID", profile.requestorId)
            + AdobeTokenXML.element("simpleTokenDomainName", domain ?? "")
            + AdobeTokenXML.element("simpleTokenExpires", AdobeTokenXML.date(profile.notAfter))
            + AdobeTokenXML.element("simpleTokenMsoID", profile.mvpdId)
            + "<simpleTokenDeviceID>" + AdobeTokenXML.element("simpleTokenFingerprint", AdobeTokenXML.fingerprint(profile.deviceId))
            + "</simpleTokenDeviceID>" + AdobeTokenXML.element("simpleSamlNameID", profile.nameId) + "</simpleAuthenticationToken>"
        return try await signAdobeToken(body: body)
    }

    /// Issues the AuthZ token of an authorization (§6.2), naming the AuthN token it came from.
    package func issueAuthzToken(_ authorization: LegacyAuthorizationRecord, authnGUID: String) async throws -> String {
        let body =
            "<simpleAuthorizationToken>" + AdobeTokenXML.element("simpleTokenRequestorID", authorization.requestorId)
            + AdobeTokenXML.element("simpleTokenResourceID", authorization.resource)
            + AdobeTokenXML.element("simpleTokenTTL", AdobeTokenXML.date(authorization.notAfter))
            + AdobeTokenXML.element("simpleTokenMsoID", authorization.mvpdId)
            + "<simpleTokenDeviceID>" + AdobeTokenXML.element("simpleTokenFingerprint", AdobeTokenXML.fingerprint(authorization.deviceId))
            + "</simpleTokenDeviceID>" + AdobeTokenXML.element("simpleTokenAuthenticationGuid", authnGUID) + "</simpleAuthorizationToken>"
        return try await signAdobeToken(body: body)
    }
}
