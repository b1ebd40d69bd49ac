import EntitleCore
import Foundation
import HTTPTypes
import Hummingbird

/// Who is calling a protected endpoint: the client application, its requestor and the device.
struct CallerIdentity: Sendable {
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
    /// The client id.
    var clientID: String { claims.sub }
}

extension HTTPField.Name {
    /// `AP-Device-Identifier`.
    static let deviceIdentifier = Self("AP-Device-Identifier")!
    /// `X-Device-Info`.
    static let deviceInfo = Self("X-Device-Info")!
    /// `AP-TempPass-Identity`.
    static let tempPassIdentity = Self("AP-TempPass-Identity")!
    /// `Retry-After`.
    static let retryAfter = Self("Retry-After")!
}

extension EntitleService {
    /// Checks the bearer token, the service provider and the device headers of a REST API v2 call.
    func caller(_ request: Request, serviceProvider: String) async throws -> CallerIdentity {
        let header = request.headers[.authorization] ?? ""
        let token: String
        if header.lowercased().hasPrefix("bearer ") {
            token = Self.trimmedASCIIBlanks(header.utf8.dropFirst(7))
        } else if let query = request.uri.queryParameters["access_token"] {
            token = String(query)
        } else {
            throw APIError(EnhancedError.invalidAccessTokenClientApplication.with(message: "The Authorization header with a Bearer access token is missing."))
        }
        guard let claims = await tokens.verify(accessToken: token) else {
            throw APIError(EnhancedError.invalidAccessTokenClientApplication.with(message: "The access token is invalid or expired."))
        }
        guard claims.requestorID == serviceProvider else {
            if try await repository.requestor(id: serviceProvider) == nil { throw APIError(.invalidServiceProvider) }
            throw APIError(.invalidAccessTokenServiceProvider)
        }
        guard let client = try await repository.activeClient(id: claims.sub) else {
            throw APIError(EnhancedError.invalidAccessTokenClientApplication.with(message: "The client application is revoked or no longer approved."))
        }
        guard let requestor = try await repository.requestor(id: serviceProvider) else { throw APIError(.invalidServiceProvider) }
        let deviceHeader = request.headers[.deviceIdentifier]
        let device = try apiCatching { () throws(EnhancedError) in
            guard let deviceHeader else { return try DeviceIdentifier.parse(header: nil) }
            return try caches.deviceIdentifiers.decode(deviceHeader) { (value) throws(EnhancedError) in try DeviceIdentifier.parse(header: value) }
        }
        var info: DeviceInfo?
        if let header = request.headers[.deviceInfo] ?? request.uri.queryParameters["device_info"].map(String.init) {
            info = try apiCatching { () throws(EnhancedError) in try caches.deviceInfos.decode(header) { (value) throws(EnhancedError) in try DeviceInfo.decode(header: value) } }
        }
        return CallerIdentity(claims: claims, requestor: requestor, device: device, deviceInfo: info, redirectURIs: client.redirectURIs)
    }

    /// The text of `bytes` without leading and trailing spaces and tabs (no Foundation bridging on the hot path).
    static func trimmedASCIIBlanks(_ bytes: Substring.UTF8View) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(Substring(bytes[first...last]))
    }

    /// An MVPD integrated with the requestor, or `invalid_parameter_mvpd`.
    func integratedMVPD(_ id: String, requestor: String) async throws -> MVPDRecord {
        guard id.utf8.count <= 128, let mvpd = try await repository.integratedMVPD(requestor: requestor, mvpd: id) else {
            throw APIError(.invalidMVPD)
        }
        return mvpd
    }
}

/// Runs typed-throwing EntitleCore parsing, rethrowing its error as an API error.
func apiCatching<T>(_ body: () throws(EnhancedError) -> T) throws(APIError) -> T {
    do { return try body() } catch { throw APIError(error) }
}
