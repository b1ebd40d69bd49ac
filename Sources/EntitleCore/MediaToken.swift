import Foundation

/// The fields of a short media token.
///
/// The service signs the token with ``MediaTokenSigner``; a programmer's video server checks it with the
/// `MediaTokenVerifier` module. `ttl` is a duration in milliseconds, `issueTime` an epoch time in milliseconds.
public struct ShortMediaToken: Sendable, Equatable, Codable {
    /// The anonymized user-session GUID.
    public var sessionGUID: String
    /// The requestor (service provider) id the token was issued to, such as `REF`.
    public var requestorID: String
    /// The resource that was authorized: a plain id (`news`) or an MRSS fragment, exactly as authorized.
    public var resourceID: String
    /// Lifetime in milliseconds, counted from `issueTime`.
    public var ttl: Int64
    /// Issue time in milliseconds since 1970-01-01T00:00:00Z.
    public var issueTime: Int64
    /// The MVPD that authorized the request.
    public var mvpdID: String
    /// The proxy MVPD, or an empty string when there is none.
    public var proxyMvpdID: String

    /// Creates a token from its fields.
    public init(
        sessionGUID: String, requestorID: String, resourceID: String, ttl: Int64, issueTime: Int64,
        mvpdID: String, proxyMvpdID: String
    ) {
        self.sessionGUID = sessionGUID
        self.requestorID = requestorID
        self.resourceID = resourceID
        self.ttl = ttl
        self.issueTime = issueTime
        self.mvpdID = mvpdID
        self.proxyMvpdID = proxyMvpdID
    }

    /// The end of the token's lifetime in epoch milliseconds (`issueTime + ttl`).
    public var expiryTime: Int64 { issueTime &+ ttl }

    /// `<shortAuthorizationToken>…</shortAuthorizationToken>` with XML-escaped values, fixed element order, one line.
    public func bodyXML() -> String {
        String(decoding: bodyXMLBytes(), as: UTF8.self)
    }

    /// ``bodyXML()`` as UTF-8 bytes, written into one buffer rather than by `String` appends: what is signed.
    public func bodyXMLBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(
            224 + sessionGUID.utf8.count + requestorID.utf8.count + resourceID.utf8.count * 2
                + mvpdID.utf8.count + proxyMvpdID.utf8.count)
        Self.append("<shortAuthorizationToken>", to: &out)
        Self.appendElement("sessionGUID", sessionGUID, to: &out)
        Self.appendElement("requestorID", requestorID, to: &out)
        Self.appendElement("resourceID", resourceID, to: &out)
        Self.appendElement("ttl", String(ttl), to: &out)
        Self.appendElement("issueTime", String(issueTime), to: &out)
        Self.appendElement("mvpdId", mvpdID, to: &out)
        Self.appendElement("proxyMvpdId", proxyMvpdID, to: &out)
        Self.append("</shortAuthorizationToken>", to: &out)
        return out
    }

    private static func appendElement(_ name: StaticString, _ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "<"))
        append(name, to: &out)
        out.append(UInt8(ascii: ">"))
        out.append(contentsOf: XMLEscape.text(value).utf8)
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "/"))
        append(name, to: &out)
        out.append(UInt8(ascii: ">"))
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
