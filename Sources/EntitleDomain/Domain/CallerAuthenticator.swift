import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Who is calling a protected endpoint: the client application, its requestor and the device.
///
/// A class: the request contexts of every middleware and route hold it, and each copy of a struct this size retained
/// about 24 strings.
package final class CallerIdentity: Sendable {
    /// Access token claims.
    package let claims: AccessTokenClaims
    /// The requestor.
    package let requestor: RequestorRecord
    /// The device.
    package let device: DeviceIdentifier
    /// Client information, when sent.
    package let deviceInfo: DeviceInfo?
    /// Redirect URIs registered for the client.
    package let redirectURIs: [String]
    /// The software statement id of the client application, for the reports (empty when unknown).
    package let app: String
    /// The client id.
    package var clientID: String { claims.sub }
    /// The platform of ``deviceInfo`` for the reports (``ReportPlatform/of(_:)``, worked out once per distinct header).
    package let platform: String
    /// The client family of the call (``ReportClient``), for the reports.
    package let client: String
    /// The application profile this request sent (``ReportAppProfile``; empty: none), for the reports.
    package let appProfile: String
    /// The visitor this request named (``ReportVisitor``, a hash; nil: none), for the reports.
    package let visitor: Int64?
    /// The client side of the events this caller causes, for the reports.
    package var origin: ReportOrigin { ReportOrigin(platform: platform, app: app, client: client, appProfile: appProfile, visitor: visitor) }

    /// Creates the caller of one request (made anew for each: the application profile and the visitor are the request's).
    package init(
        claims: AccessTokenClaims, requestor: RequestorRecord, device: DeviceIdentifier, deviceInfo: DeviceInfo?, redirectURIs: [String],
        app: String = "", platform: String? = nil, client: String = ReportClient.restV2, appProfile: String = "", visitor: Int64? = nil
    ) {
        (self.claims, self.requestor, self.device, self.deviceInfo, self.redirectURIs, self.app) =
            (claims, requestor, device, deviceInfo, redirectURIs, app)
        self.platform = platform ?? ReportPlatform.of(deviceInfo)
        self.client = client
        (self.appProfile, self.visitor) = (appProfile, visitor)
    }
}

/// A decoded `X-Device-Info` header with its report platform, kept together per distinct header value (a class: each
/// call reads it from the cache, and a reference is cheaper to hand out than a copy of its strings).
package final class DecodedDeviceInfo: Sendable {
    package let info: DeviceInfo
    package let platform: String

    package init(_ info: DeviceInfo) { (self.info, platform) = (info, ReportPlatform.of(info)) }
}

/// Establishes the caller of a REST API v2 call from its credentials: the access token (checked, its client still
/// approved, issued for the service provider of the path) and the device headers (decoded once per distinct value).
package struct CallerAuthenticator: Sendable {
    package let tokens: TokenIssuer
    /// The service provider of the path.
    package let catalog: any CatalogReading
    /// The client of the access token.
    package let clients: ClientStore
    package let caches: ServiceCaches

    /// The credentials of one call, as sent.
    package struct Credentials: Sendable {
        /// The `Authorization` header.
        package var authorization: String?
        /// The `access_token` query parameter.
        package var accessTokenParameter: String?
        /// The `AP-Device-Identifier` header.
        package var deviceIdentifier: String?
        /// The `X-Device-Info` header, or the `device_info` query parameter.
        package var deviceInfo: String?
        /// The `User-Agent` header (tells Entitle's SDK from other REST v2 callers, for the reports).
        package var userAgent: String? = nil
        /// The `AP-Application-Profile` header (the reports' `profile`).
        package var applicationProfile: String? = nil
        /// The `AP-Visitor-Identifier` header (the reports' `uniqueVisitors`; only its hash is kept).
        package var visitorIdentifier: String? = nil

        /// Creates the value from each of its stored properties.
        package init(authorization: String? = nil, accessTokenParameter: String? = nil, deviceIdentifier: String? = nil, deviceInfo: String? = nil) {
            self.authorization = authorization
            self.accessTokenParameter = accessTokenParameter
            self.deviceIdentifier = deviceIdentifier
            self.deviceInfo = deviceInfo
        }
    }

    /// The caller of a call to `serviceProvider`, or the Enhanced Error that says why there is none.
    package func caller(_ credentials: Credentials, serviceProvider: String) async throws -> CallerIdentity {
        let header = credentials.authorization ?? ""
        let token: String
        // The scheme is case-insensitive; only its seven bytes are compared, not a lowercased copy of the whole token.
        if header.hasASCIIPrefixIgnoringCase("bearer ") {
            token = Self.trimmedASCIIBlanks(header.utf8.dropFirst(7))
        } else if let query = credentials.accessTokenParameter {
            token = query
        } else {
            throw EnhancedError.invalidAccessTokenClientApplication.with(message: "The Authorization header with a Bearer access token is missing.")
        }
        guard let claims = await tokens.verify(accessToken: token) else {
            throw EnhancedError.invalidAccessTokenClientApplication.with(message: "The access token is invalid or expired.")
        }
        guard claims.requestorID == serviceProvider else {
            if try await catalog.requestor(id: serviceProvider) == nil { throw EnhancedError.invalidServiceProvider }
            throw EnhancedError.invalidAccessTokenServiceProvider
        }
        guard let client = try await clients.activeClient(id: claims.sub) else {
            throw EnhancedError.invalidAccessTokenClientApplication.with(message: "The client application is revoked or no longer approved.")
        }
        guard let requestor = try await catalog.requestor(id: serviceProvider) else { throw EnhancedError.invalidServiceProvider }
        let deviceHeader = credentials.deviceIdentifier
        let device =
            try deviceHeader.map { header throws(EnhancedError) in
                try caches.deviceIdentifiers.decode(header) { (value) throws(EnhancedError) in try DeviceIdentifier.parse(header: value) }
            } ?? DeviceIdentifier.parse(header: nil)
        let info = try credentials.deviceInfo.map { header throws(EnhancedError) in
            try caches.deviceInfos.decode(header) { (value) throws(EnhancedError) in DecodedDeviceInfo(try DeviceInfo.decode(header: value)) }
        }
        return CallerIdentity(
            claims: claims, requestor: requestor, device: device, deviceInfo: info?.info, redirectURIs: client.redirectURIs, app: client.softwareId,
            platform: info?.platform, client: ReportClient.ofRESTv2(userAgent: credentials.userAgent),
            appProfile: ReportAppProfile.of(credentials.applicationProfile), visitor: ReportVisitor.id(credentials.visitorIdentifier))
    }

    /// The text of `bytes` without leading and trailing spaces and tabs (no Foundation bridging on the hot path).
    package static func trimmedASCIIBlanks(_ bytes: Substring.UTF8View) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(Substring(bytes[first...last]))
    }

    /// Creates the value from each of its stored properties.
    package init(tokens: TokenIssuer, catalog: any CatalogReading, clients: ClientStore, caches: ServiceCaches) {
        self.tokens = tokens
        self.catalog = catalog
        self.clients = clients
        self.caches = caches
    }
}
