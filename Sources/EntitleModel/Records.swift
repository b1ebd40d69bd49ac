import EntitleCore
import Foundation

/// A programmer (requestor / service provider) and its settings.
package struct RequestorRecord: Sendable, Equatable {
    /// Requestor id, such as `REF`.
    package var id: String
    /// Display name.
    package var name: String
    /// Web domains.
    package var domains: [String]
    /// Most resources accepted in one decisions request.
    package var maxResources: Int64
    /// PEM certificate (or public key) used to encrypt user metadata for the programmer.
    package var metadataCertificatePem: String?
    /// Profile (authentication) lifetime, seconds, of its integrations that set none; nil: each MVPD's own.
    package var defaultProfileTtlSeconds: Int64?
    /// How long MVPD authorization answers are kept, seconds, for its integrations that set none; nil: each MVPD's own.
    package var defaultAuthzTtlSeconds: Int64?
    /// Most resources per preflight call to the MVPD, for its integrations that set none; nil: preflight in one call off.
    package var defaultPreflightMaxResources: Int64?

    /// Creates a requestor record.
    package init(
        id: String, name: String, domains: [String], maxResources: Int64, metadataCertificatePem: String?,
        defaultProfileTtlSeconds: Int64? = nil, defaultAuthzTtlSeconds: Int64? = nil, defaultPreflightMaxResources: Int64? = nil
    ) {
        self.id = id
        self.name = name
        self.domains = domains
        self.maxResources = maxResources
        self.metadataCertificatePem = metadataCertificatePem
        self.defaultProfileTtlSeconds = defaultProfileTtlSeconds
        self.defaultAuthzTtlSeconds = defaultAuthzTtlSeconds
        self.defaultPreflightMaxResources = defaultPreflightMaxResources
    }
}

/// An MVPD integration: SAML 2.0 identity provider plus authorization adapter, or a TempPass pseudo-MVPD.
package struct MVPDRecord: Sendable, Equatable {
    /// MVPD id.
    package var id: String
    /// Display name.
    package var displayName: String
    /// Logo URL.
    package var logoUrl: String
    /// SAML 2.0 or TempPass.
    package var kind: MVPDKind
    /// IdP entity id (SAML).
    package var entityId: String?
    /// IdP single sign-on URL, HTTP-Redirect binding (SAML).
    package var ssoUrl: String?
    /// IdP single logout URL, HTTP-Redirect binding, when supported.
    package var sloUrl: String?
    /// IdP signing certificates, PEM.
    package var certificates: [String]
    /// Authorization API URL.
    package var authorizationUrl: String?
    /// Bearer key for the authorization API (never logged).
    package var authorizationKey: String?
    /// Whether the login page needs SFSafariViewController.
    package var requiresSafariViewController: Bool
    /// Whether platform SSO is enabled.
    package var enablePlatformServices: Bool
    /// Platform boarding status.
    package var boardingStatus: String?
    /// Platform mapping id.
    package var platformMappingId: String?
    /// Whether the MVPD is shown in the platform picker.
    package var displayInPlatformPicker: Bool
    /// TempPass length in minutes (TempPass only).
    package var temppassMinutes: Int64?
    /// Profile lifetime in seconds.
    package var profileTtlSeconds: Int64
    /// User-metadata keys delivered encrypted.
    package var encryptedAttributes: [String]
    /// Promotional TempPass: how many distinct resources one pass may play (nil for a plain TempPass).
    package var temppassResourceLimit: Int64?
    /// The proxy MVPD this proxied MVPD signs in and authorizes through (nil: not a proxied MVPD). Its SAML settings are
    /// the proxy's; its entity id is the SAML Issuer the proxy answers with for it.
    package var proxyMvpdId: String? = nil
    /// The login page's iframe size a proxy pushed for this proxied MVPD (`<iframeSize>`), as the requestors' MVPD lists
    /// read it (nil elsewhere, and when none was pushed).
    package var iframeWidth: Int64? = nil
    package var iframeHeight: Int64? = nil

    /// The MVPD whose SAML options, SSO binding and authorization protocol apply: the proxy of a proxied MVPD, else itself.
    package var settingsMVPDId: String { proxyMvpdId ?? id }

    /// Whether this is a TempPass pseudo-MVPD.
    package var isTempPass: Bool { kind == .tempPass }

    /// Creates the value from each of its stored properties.
    package init(
        id: String, displayName: String, logoUrl: String, kind: MVPDKind, entityId: String? = nil, ssoUrl: String? = nil, sloUrl: String? = nil,
        certificates: [String], authorizationUrl: String? = nil, authorizationKey: String? = nil, requiresSafariViewController: Bool,
        enablePlatformServices: Bool, boardingStatus: String? = nil, platformMappingId: String? = nil, displayInPlatformPicker: Bool,
        temppassMinutes: Int64? = nil, profileTtlSeconds: Int64, encryptedAttributes: [String], temppassResourceLimit: Int64? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.logoUrl = logoUrl
        self.kind = kind
        self.entityId = entityId
        self.ssoUrl = ssoUrl
        self.sloUrl = sloUrl
        self.certificates = certificates
        self.authorizationUrl = authorizationUrl
        self.authorizationKey = authorizationKey
        self.requiresSafariViewController = requiresSafariViewController
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.platformMappingId = platformMappingId
        self.displayInPlatformPicker = displayInPlatformPicker
        self.temppassMinutes = temppassMinutes
        self.profileTtlSeconds = profileTtlSeconds
        self.encryptedAttributes = encryptedAttributes
        self.temppassResourceLimit = temppassResourceLimit
    }
}

/// An approved software statement.
package struct SoftwareStatementRecord: Sendable, Equatable {
    /// The statement's `software_id`.
    package var softwareId: String
    /// The requestor it belongs to.
    package var requestorId: String
    /// Application name.
    package var name: String
    /// Allowed redirect URIs.
    package var redirectURIs: [String]
    /// Issue time, seconds.
    package var issuedAt: Int64
    /// Whether it was revoked.
    package var revoked: Bool
    /// Whether its clients are a network's backend calling REST API v2 for its devices (Adobe's server-to-server
    /// cookbook): the device's address is then taken from the first `X-Forwarded-For` address of their calls.
    package var serverToServer: Bool

    /// Creates the value from each of its stored properties.
    package init(
        softwareId: String, requestorId: String, name: String, redirectURIs: [String], issuedAt: Int64, revoked: Bool, serverToServer: Bool = false
    ) {
        self.softwareId = softwareId
        self.requestorId = requestorId
        self.name = name
        self.redirectURIs = redirectURIs
        self.issuedAt = issuedAt
        self.revoked = revoked
        self.serverToServer = serverToServer
    }
}

/// A registered client application instance.
package struct ClientRecord: Sendable, Equatable {
    /// Client id.
    package var clientId: String
    /// SHA-256 of the client secret, hex.
    package var secretHash: String
    /// The software statement it registered with.
    package var softwareId: String
    /// The requestor.
    package var requestorId: String
    /// Redirect URIs.
    package var redirectURIs: [String]
    /// Issue time, seconds.
    package var issuedAt: Int64
    /// Whether it was revoked.
    package var revoked: Bool

    /// Creates the value from each of its stored properties.
    package init(
        clientId: String, secretHash: String, softwareId: String, requestorId: String, redirectURIs: [String], issuedAt: Int64, revoked: Bool
    ) {
        self.clientId = clientId
        self.secretHash = secretHash
        self.softwareId = softwareId
        self.requestorId = requestorId
        self.redirectURIs = redirectURIs
        self.issuedAt = issuedAt
        self.revoked = revoked
    }
}

/// An authentication session, identified by its registration code.
package struct AuthSessionRecord: Codable, Sendable, Equatable {
    /// The code (also the second-screen registration code).
    package var code: String
    /// Session id (UUID).
    package var sessionId: String
    /// Requestor.
    package var requestorId: String
    /// Client application that created it.
    package var clientId: String
    /// Device that created it.
    package var deviceId: String
    /// Selected MVPD, once known.
    package var mvpdId: String?
    /// Domain name, once known.
    package var domainName: String?
    /// Where to send the user agent at the end.
    package var redirectUrl: String?
    /// Where the session stands.
    package var status: AuthenticationSessionStatus
    /// The SAML AuthnRequest id sent to the MVPD.
    package var authnRequestId: String?
    /// Why the login failed.
    package var failure: String?
    /// Creation time, ms.
    package var createdAt: Int64
    /// Expiry, ms.
    package var notAfter: Int64
    /// The platform of the client that created it (``ReportPlatform``), for the reports; nil in sessions made before
    /// the reports existed.
    package var platform: String? = nil
    /// The software statement id of the client that created it, for the reports.
    package var app: String? = nil
    /// The client family that created it (`sdk`, `rest-v2`, `rest-v1`, `adobe-services`), for the reports; nil in
    /// sessions made before migration 118.
    package var reportClient: String? = nil
    /// The application profile the client that created it sent (``ReportOrigin/appProfile``), for the reports; nil
    /// when it sent none, and in sessions made before migration 114.
    package var appProfile: String? = nil
    /// The visitor of the call that created it (``ReportOrigin/visitor``, a hash), for the reports' `uniqueVisitors`.
    package var reportVisitor: Int64? = nil

    /// Creates the value from each of its stored properties.
    package init(
        code: String, sessionId: String, requestorId: String, clientId: String, deviceId: String, mvpdId: String? = nil, domainName: String? = nil,
        redirectUrl: String? = nil, status: AuthenticationSessionStatus, authnRequestId: String? = nil, failure: String? = nil, createdAt: Int64,
        notAfter: Int64, platform: String? = nil, app: String? = nil, reportClient: String? = nil, appProfile: String? = nil,
        reportVisitor: Int64? = nil
    ) {
        self.reportClient = reportClient
        self.appProfile = appProfile
        self.reportVisitor = reportVisitor
        self.code = code
        self.sessionId = sessionId
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.domainName = domainName
        self.redirectUrl = redirectUrl
        self.status = status
        self.authnRequestId = authnRequestId
        self.failure = failure
        self.createdAt = createdAt
        self.notAfter = notAfter
        self.platform = platform
        self.app = app
    }
}

/// An authenticated profile bound to (requestor, client, device, MVPD).
package struct ProfileRecord: Codable, Sendable, Equatable {
    /// Requestor.
    package var requestorId: String
    /// Client application.
    package var clientId: String
    /// Device.
    package var deviceId: String
    /// MVPD.
    package var mvpdId: String
    /// How the profile came about.
    package var type: ProfileType
    /// Issuer.
    package var issuer: String
    /// Validity start, ms.
    package var notBefore: Int64
    /// Validity end, ms.
    package var notAfter: Int64
    /// User metadata, JSON object text of name → [values], kept as stored: every decision reads the profile and never
    /// its metadata, so it is decoded only when asked for (``attributeMap``).
    package var attributes: String
    /// SAML NameID.
    package var nameId: String
    /// SAML SessionIndex.
    package var sessionIndex: String?
    /// The session code that produced it.
    package var sessionCode: String?
    /// The MVPD's user id (used for authorization calls).
    package var userId: String
    /// The channel lineup the MVPD's assertion carried (JSON array of resource ids), kept for preflight by lineup; nil
    /// when the integration does not preflight by lineup or the assertion had no lineup attribute.
    package var lineup: String? = nil

    /// Attributes decoded.
    package var attributeMap: [String: [String]] { JSONText.decode(attributes) }

    /// Creates the value from each of its stored properties.
    package init(
        requestorId: String, clientId: String, deviceId: String, mvpdId: String, type: ProfileType, issuer: String, notBefore: Int64, notAfter: Int64,
        attributes: String, nameId: String, sessionIndex: String? = nil, sessionCode: String? = nil, userId: String, lineup: String? = nil
    ) {
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.type = type
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.attributes = attributes
        self.nameId = nameId
        self.sessionIndex = sessionIndex
        self.sessionCode = sessionCode
        self.userId = userId
        self.lineup = lineup
    }
}

/// A Single Logout in progress.
package struct LogoutRequestRecord: Codable, Sendable, Equatable {
    /// The LogoutRequest id.
    package var requestId: String
    /// The MVPD.
    package var mvpdId: String
    /// Where to send the user agent afterwards.
    package var redirectUrl: String?
    /// The SAML NameID logged out.
    package var nameId: String
    /// The SAML SessionIndex logged out.
    package var sessionIndex: String?
    /// Creation time, ms.
    package var createdAt: Int64
    /// Expiry, ms.
    package var expiresAt: Int64

    /// Creates the value from each of its stored properties.
    package init(
        requestId: String, mvpdId: String, redirectUrl: String? = nil, nameId: String, sessionIndex: String? = nil, createdAt: Int64, expiresAt: Int64
    ) {
        self.requestId = requestId
        self.mvpdId = mvpdId
        self.redirectUrl = redirectUrl
        self.nameId = nameId
        self.sessionIndex = sessionIndex
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// JSON text helpers for list and map columns.
package enum JSONText {
    package static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "null"
    }

    package static func decode<T: Decodable & DefaultValue>(_ text: String) -> T {
        (try? JSONDecoder().decode(T.self, from: Data(text.utf8))) ?? T.defaultValue
    }
}

/// A value to use when a JSON column cannot be decoded.
package protocol DefaultValue { static var defaultValue: Self { get } }
extension Array: DefaultValue { package static var defaultValue: [Element] { [] } }
extension Dictionary: DefaultValue { package static var defaultValue: [Key: Value] { [:] } }
