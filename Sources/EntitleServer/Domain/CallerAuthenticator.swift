import EntitleCore
import Foundation

/// Who is calling a protected endpoint: the client application, its requestor and the device.
///
/// A class: the request contexts of every middleware and route hold it, and each copy of a struct this size retained
/// about 24 strings.
final class CallerIdentity: Sendable {
    /// Access token claims.
    let claims: AccessTokenClaims
    /// The requestor.
    let requestor: RequestorRecord
    /// The device.
    let device: DeviceIdentifier
    /// Client information, when sent.
    let deviceInfo: DeviceInfo?
    /// Redirect URIs registered for the client.
    let redirectURIs: [String]
    /// The software statement id of the client application, for the reports (empty when unknown).
    let app: String
    /// The client id.
    var clientID: String { claims.sub }
    /// The platform of ``deviceInfo`` for the reports (``ReportPlatform/of(_:)``, worked out once per distinct header).
    let platform: String
    /// The client side of the events this caller causes, for the reports.
    var origin: ReportOrigin { ReportOrigin(platform: platform, app: app) }

    init(
        claims: AccessTokenClaims, requestor: RequestorRecord, device: DeviceIdentifier, deviceInfo: DeviceInfo?, redirectURIs: [String],
        app: String = "", platform: String? = nil
    ) {
        (self.claims, self.requestor, self.device, self.deviceInfo, self.redirectURIs, self.app) =
            (claims, requestor, device, deviceInfo, redirectURIs, app)
        self.platform = platform ?? ReportPlatform.of(deviceInfo)
    }
}

/// A decoded `X-Device-Info` header with its report platform, kept together per distinct header value (a class: each
/// call reads it from the cache, and a reference is cheaper to hand out than a copy of its strings).
final class DecodedDeviceInfo: Sendable {
    let info: DeviceInfo
    let platform: String

    init(_ info: DeviceInfo) { (self.info, platform) = (info, ReportPlatform.of(info)) }
}

/// Establishes the caller of a REST API v2 call from its credentials: the access token (checked, its client still
/// approved, issued for the service provider of the path) and the device headers (decoded once per distinct value).
struct CallerAuthenticator: Sendable {
    let tokens: TokenIssuer
    /// The service provider of the path.
    let catalog: any CatalogReading
    /// The client of the access token.
    let clients: ClientStore
    let caches: ServiceCaches

    /// The credentials of one call, as sent.
    struct Credentials: Sendable {
        /// The `Authorization` header.
        var authorization: String?
        /// The `access_token` query parameter.
        var accessTokenParameter: String?
        /// The `AP-Device-Identifier` header.
        var deviceIdentifier: String?
        /// The `X-Device-Info` header, or the `device_info` query parameter.
        var deviceInfo: String?
    }

    /// The caller of a call to `serviceProvider`, or the Enhanced Error that says why there is none.
    func caller(_ credentials: Credentials, serviceProvider: String) async throws -> CallerIdentity {
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
            platform: info?.platform)
    }

    /// The text of `bytes` without leading and trailing spaces and tabs (no Foundation bridging on the hot path).
    static func trimmedASCIIBlanks(_ bytes: Substring.UTF8View) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(Substring(bytes[first...last]))
    }
}
