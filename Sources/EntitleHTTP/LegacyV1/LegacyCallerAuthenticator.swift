import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// App identity on REST API v1 (protocol notes §2.1.3, §2.3): a DCR access token (`Authorization: Bearer`, or the
/// `access_token` parameter), or the legacy HMAC `Authorization` header signed with a requestor key pair.
/// The answer is a ``CallerIdentity`` like REST v2's, so both protocols share one state: the client is the DCR client id
/// (or `hmac:<public key>`), the device is v1's `deviceId`, which equals the decoded v2 `AP-Device-Identifier`.
/// ``LegacyCallerMiddleware`` runs it once per call of REST v1 and adobe-services.
package struct LegacyCallerAuthenticator: ClockReading {
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Registered clients.
    package let clients: any ClientStoring
    /// Legacy (v1) records.
    package let legacy: any LegacyStoring
    package let tokens: TokenIssuer
    package let clock: any ServiceClock

    /// How far `request_time` may be from the service's clock (either way), ms.
    package static let hmacTimeWindow: Int64 = 5 * 60_000

    /// Checks the app identity of a v1 call for `requestorID` and binds it to the `deviceId` of the call; `client` is
    /// the client family the reports count its events for (REST v1 or adobe-services).
    package func caller(_ v1: V1Request, requestorID: String, needsDevice: Bool, client: String = ReportClient.restV1) async throws
        -> CallerIdentity
    {
        let header = v1.request.headers[.authorization] ?? ""
        let (clientID, redirectURIs, claimsRequestor) = try await legacyApp(v1, header: header)
        guard claimsRequestor == requestorID else {
            if try await catalog.requestor(id: requestorID) == nil {
                throw APIError(.v1(400, "invalid_requestor", "The requestor parameter is missing or invalid."))
            }
            throw APIError(
                .v1(
                    401, "invalid_access_token_service_provider", "The credentials are not issued for this requestor.",
                    action: "application-registration"))
        }
        guard let requestor = try await catalog.requestor(id: requestorID) else {
            throw APIError(.v1(400, "invalid_requestor", "The requestor parameter is missing or invalid."))
        }
        let device = try needsDevice ? v1.deviceID() : DeviceIdentifier(rawValue: "none")!
        let now = Int64(clock.now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: TokenIssuer.issuer, sub: clientID, requestorID: requestorID, scopes: "api:client:v1",
            iat: now, nbf: now, exp: now, jti: "")
        // The application, for the reports: the DCR client's software statement (an HMAC key pair has none).
        let app = clientID.hasPrefix("hmac:") ? "" : (try await clients.activeClient(id: clientID)?.softwareId ?? "")
        return CallerIdentity(
            claims: claims, requestor: requestor, device: device, deviceInfo: try v1.deviceInfo(), redirectURIs: redirectURIs, app: app,
            client: client, appProfile: v1.reportAppProfile, visitor: v1.reportVisitor)
    }

    /// The client id, its redirect URIs and its requestor, from a bearer token or an HMAC header.
    private func legacyApp(_ v1: V1Request, header: String) async throws -> (String, [String], String) {
        let registration = EnhancedError.Action.applicationRegistration
        var token: String?
        if header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        } else if header.isEmpty, let parameter = v1["access_token"] {
            token = parameter
        }
        if let token {
            guard let claims = await tokens.verify(accessToken: token) else {
                throw APIError(.v1(401, "access_token_expired", "The access token is invalid or expired: fetch a new one.", action: registration))
            }
            guard let client = try await clients.activeClient(id: claims.sub) else {
                throw APIError(
                    .v1(
                        401, "invalid_client_id", "The client application is revoked or no longer approved: register again.",
                        action: registration))
            }
            return (client.clientId, client.redirectURIs, claims.requestorID)
        }
        guard !header.isEmpty else {
            throw APIError(.v1(401, "missing_authentication_header", "Not Authorized: missing authorization header.", action: registration))
        }
        guard let hmac = HMACAuthorization.parse(header), hmac.signatureMethod == "HMAC-SHA1" else {
            throw APIError(.v1(401, "invalid_authorization_header", "The Authorization header is malformed.", action: registration))
        }
        guard let key = try await legacy.activeLegacyAppKey(publicKey: hmac.publicKey), key.requestorId == hmac.requestorID else {
            throw APIError(.v1(401, "invalid_client_id", "The public key is unknown or revoked.", action: registration))
        }
        guard hmac.hasValidSignature(privateKey: key.privateKey), hmac.method == v1.request.method.rawValue,
            hmac.matches(path: v1.request.uri.path)
        else {
            throw APIError(.v1(401, "invalid_access_token_signature", "The request signature is not valid.", action: registration))
        }
        let now = self.now
        guard abs(hmac.requestTime - now) <= Self.hmacTimeWindow else {
            throw APIError(
                .v1(
                    400, "invalid_client_time", "The request time is too far from the service's time (check that it is in milliseconds).",
                    action: registration))
        }
        guard
            try await legacy.useNonce(
                key: Secrets.sha256Hex(key.publicKey + "|" + hmac.nonce),
                expiresAt: hmac.requestTime + Self.hmacTimeWindow + 60_000, now: now)
        else {
            throw APIError(.v1(401, "nonce_replayed", "The nonce was already used: every request needs a new nonce.", action: registration))
        }
        return ("hmac:" + key.publicKey, [], key.requestorId)
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: any CatalogReading, clients: any ClientStoring, legacy: any LegacyStoring, tokens: TokenIssuer, clock: any ServiceClock) {
        self.catalog = catalog
        self.clients = clients
        self.legacy = legacy
        self.tokens = tokens
        self.clock = clock
    }
}
