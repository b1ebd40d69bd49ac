import EntitleCore
import Foundation

/// A programmer (requestor / service provider) and its settings.
public struct RequestorRecord: Sendable, Equatable {
    /// Requestor id, such as `REF`.
    public var id: String
    /// Display name.
    public var name: String
    /// Web domains.
    public var domains: [String]
    /// Most resources accepted in one decisions request.
    public var maxResources: Int64
    /// PEM certificate (or public key) used to encrypt user metadata for the programmer.
    public var metadataCertificatePem: String?

    /// Creates a requestor record.
    public init(id: String, name: String, domains: [String], maxResources: Int64, metadataCertificatePem: String?) {
        self.id = id
        self.name = name
        self.domains = domains
        self.maxResources = maxResources
        self.metadataCertificatePem = metadataCertificatePem
    }
}

/// An MVPD integration: SAML 2.0 identity provider plus authorization adapter, or a TempPass pseudo-MVPD.
public struct MVPDRecord: Sendable, Equatable {
    /// MVPD id.
    public var id: String
    /// Display name.
    public var displayName: String
    /// Logo URL.
    public var logoUrl: String
    /// SAML 2.0 or TempPass.
    public var kind: MVPDKind
    /// IdP entity id (SAML).
    public var entityId: String?
    /// IdP single sign-on URL, HTTP-Redirect binding (SAML).
    public var ssoUrl: String?
    /// IdP single logout URL, HTTP-Redirect binding, when supported.
    public var sloUrl: String?
    /// IdP signing certificates, PEM.
    public var certificates: [String]
    /// Authorization API URL.
    public var authorizationUrl: String?
    /// Bearer key for the authorization API (never logged).
    public var authorizationKey: String?
    /// Whether the login page needs SFSafariViewController.
    public var requiresSafariViewController: Bool
    /// Whether platform SSO is enabled.
    public var enablePlatformServices: Bool
    /// Platform boarding status.
    public var boardingStatus: String?
    /// Platform mapping id.
    public var platformMappingId: String?
    /// Whether the MVPD is shown in the platform picker.
    public var displayInPlatformPicker: Bool
    /// TempPass length in minutes (TempPass only).
    public var temppassMinutes: Int64?
    /// Profile lifetime in seconds.
    public var profileTtlSeconds: Int64
    /// User-metadata keys delivered encrypted.
    public var encryptedAttributes: [String]
    /// Promotional TempPass: how many distinct resources one pass may play (nil for a plain TempPass).
    public var temppassResourceLimit: Int64?

    /// Whether this is a TempPass pseudo-MVPD.
    public var isTempPass: Bool { kind == .tempPass }
}

/// An approved software statement.
public struct SoftwareStatementRecord: Sendable, Equatable {
    /// The statement's `software_id`.
    public var softwareId: String
    /// The requestor it belongs to.
    public var requestorId: String
    /// Application name.
    public var name: String
    /// Allowed redirect URIs.
    public var redirectURIs: [String]
    /// Issue time, seconds.
    public var issuedAt: Int64
    /// Whether it was revoked.
    public var revoked: Bool
}

/// A registered client application instance.
public struct ClientRecord: Sendable, Equatable {
    /// Client id.
    public var clientId: String
    /// SHA-256 of the client secret, hex.
    public var secretHash: String
    /// The software statement it registered with.
    public var softwareId: String
    /// The requestor.
    public var requestorId: String
    /// Redirect URIs.
    public var redirectURIs: [String]
    /// Issue time, seconds.
    public var issuedAt: Int64
    /// Whether it was revoked.
    public var revoked: Bool
}

/// An authentication session, identified by its registration code.
public struct AuthSessionRecord: Codable, Sendable, Equatable {
    /// The code (also the second-screen registration code).
    public var code: String
    /// Session id (UUID).
    public var sessionId: String
    /// Requestor.
    public var requestorId: String
    /// Client application that created it.
    public var clientId: String
    /// Device that created it.
    public var deviceId: String
    /// Selected MVPD, once known.
    public var mvpdId: String?
    /// Domain name, once known.
    public var domainName: String?
    /// Where to send the user agent at the end.
    public var redirectUrl: String?
    /// Where the session stands.
    public var status: AuthenticationSessionStatus
    /// The SAML AuthnRequest id sent to the MVPD.
    public var authnRequestId: String?
    /// Why the login failed.
    public var failure: String?
    /// Creation time, ms.
    public var createdAt: Int64
    /// Expiry, ms.
    public var notAfter: Int64
}

/// An authenticated profile bound to (requestor, client, device, MVPD).
public struct ProfileRecord: Codable, Sendable, Equatable {
    /// Requestor.
    public var requestorId: String
    /// Client application.
    public var clientId: String
    /// Device.
    public var deviceId: String
    /// MVPD.
    public var mvpdId: String
    /// How the profile came about.
    public var type: ProfileType
    /// Issuer.
    public var issuer: String
    /// Validity start, ms.
    public var notBefore: Int64
    /// Validity end, ms.
    public var notAfter: Int64
    /// User metadata, JSON object text of name → [values], kept as stored: every decision reads the profile and never
    /// its metadata, so it is decoded only when asked for (``attributeMap``).
    public var attributes: String
    /// SAML NameID.
    public var nameId: String
    /// SAML SessionIndex.
    public var sessionIndex: String?
    /// The session code that produced it.
    public var sessionCode: String?
    /// The MVPD's user id (used for authorization calls).
    public var userId: String

    /// Attributes decoded.
    public var attributeMap: [String: [String]] { JSONText.decode(attributes) }
}

/// A Single Logout in progress.
public struct LogoutRequestRecord: Codable, Sendable, Equatable {
    /// The LogoutRequest id.
    public var requestId: String
    /// The MVPD.
    public var mvpdId: String
    /// Where to send the user agent afterwards.
    public var redirectUrl: String?
    /// The SAML NameID logged out.
    public var nameId: String
    /// The SAML SessionIndex logged out.
    public var sessionIndex: String?
    /// Creation time, ms.
    public var createdAt: Int64
    /// Expiry, ms.
    public var expiresAt: Int64
}

/// JSON text helpers for list and map columns.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }

    static func decode<T: Decodable & DefaultValue>(_ text: String) -> T {
        (try? JSONDecoder().decode(T.self, from: Data(text.utf8))) ?? T.defaultValue
    }
}

/// A value to use when a JSON column cannot be decoded.
protocol DefaultValue { static var defaultValue: Self { get } }
extension Array: DefaultValue { static var defaultValue: [Element] { [] } }
extension Dictionary: DefaultValue { static var defaultValue: [Key: Value] { [:] } }
