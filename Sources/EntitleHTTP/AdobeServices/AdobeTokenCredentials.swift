import _CryptoExtras
import Crypto
import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird
import SAML

/// The caller of an adobe-services call that resumes with the tokens of an earlier run and sends no app credential, as
/// yt-dlp's Adobe Pass client does on its second run (`shortAuthorize` with its cached AuthZ token, or `authorize` with
/// its cached AuthN token; no `Authorization` header, no device id): the token is the credential.
///
/// Accepted only when all of these hold, in this order: the token is Entitle's (its `<signatureInfo>` RSA signature
/// verifies against a published media-token key, current or not yet retired) and of the expected kind (an AuthN token as
/// `authentication_token`, an AuthZ token as `authz_token`); it names `requestor_id`; its GUID is a recorded AuthN token
/// of that requestor; the DCR client (or HMAC key) it was issued to is still active; a device id sent (`device_id`,
/// `Ap_21`) is its device; the `ap_19` / `ap_23` headers, when sent, are its sign-in's NameID and SessionIndex; and for an
/// AuthZ token, `session_guid` (`hashed_guid=false`) is the GUID of the AuthN token it came from. The caller is then the
/// token's client and device, and the handler checks its sign-in as for any caller (`<pendingLogout>` when it ended).
package struct AdobeTokenCredentials: ClockReading {
    package let catalog: any CatalogReading
    package let clients: any ClientStoring
    package let legacy: any LegacyStoring
    package let profileStore: any ProfileStoring
    package let keys: ServiceKeys
    package let clock: any ServiceClock

    /// The token a call carries as its credential.
    private enum Carried {
        case authentication(String)
        case authorization(String)

        var pendingReason: String {
            switch self {
            case .authentication: "34764"
            case .authorization: "58772"
            }
        }
    }

    /// Whether the call sent an app credential of its own (then ``LegacyCallerAuthenticator`` decides alone).
    package static func sendsAppCredential(_ v1: V1Request) -> Bool {
        v1.request.headers[.authorization] != nil || v1["access_token"] != nil
    }

    /// The caller the token of `v1` proves, or nil when the call carries no token (the caller is then unauthenticated).
    package func caller(_ v1: V1Request, requestorID: String) async throws -> CallerIdentity? {
        let carried: Carried
        if let authz = v1["authz_token"] {
            carried = .authorization(authz)
        } else if let authn = v1["authentication_token"] {
            carried = .authentication(authn)
        } else {
            return nil
        }
        let body = try await verifiedBody(carried)
        guard AdobeTokenXML.value(of: "simpleTokenRequestorID", in: body) == requestorID,
            let requestor = try await catalog.requestor(id: requestorID)
        else {
            throw APIError(
                .v1(401, "authentication_session_issuer_mismatch", "The token was not issued for this requestor.", action: "authentication"))
        }
        // Signed by us, but no longer recorded (purged after it expired, or forgotten at logout): the client drops it.
        guard let guid = AdobeTokenXML.value(of: "simpleTokenAuthenticationGuid", in: body), let record = try await legacy.adobeToken(guid: guid)
        else { throw AdobePendingLogout(reason: carried.pendingReason) }
        guard record.requestorId == requestorID else {
            throw APIError(
                .v1(401, "authentication_session_issuer_mismatch", "The token was not issued for this requestor.", action: "authentication"))
        }
        let (redirectURIs, app) = try await issuedClient(record.clientId)
        if let fingerprint = AdobeTokenXML.value(of: "simpleTokenFingerprint", in: body), fingerprint != AdobeTokenXML.fingerprint(record.deviceId) {
            throw APIError(.v1(401, "invalid_authentication_token", "The token is not bound to the device it names.", action: "authentication"))
        }
        if let device = v1["device_id"] ?? v1.request.headers[HTTPField.Name("Ap_21")!], device != record.deviceId {
            throw AdobePendingLogout(reason: carried.pendingReason)
        }
        if case .authorization = carried {
            guard v1["hashed_guid"] == nil || v1["hashed_guid"] == "false", let sessionGUID = v1["session_guid"] else {
                throw APIError(
                    .v1(
                        401, "missing_authentication_header",
                        "Without an app credential, an authz_token must come with its session_guid (hashed_guid=false).",
                        action: "application-registration"))
            }
            guard sessionGUID == guid else {
                throw APIError(
                    .v1(401, "invalid_authorization_token", "session_guid is not the GUID of the token's sign-in.", action: "authorization"))
            }
        }
        try await checkSignInHeaders(v1, record: record)
        let deviceIdentifier = DeviceIdentifier(rawValue: record.deviceId) ?? DeviceIdentifier(rawValue: "none")!
        let seconds = Int64(clock.now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: TokenIssuer.issuer, sub: record.clientId, requestorID: requestorID, scopes: "api:client:v1", iat: seconds, nbf: seconds,
            exp: seconds,
            jti: "")
        return CallerIdentity(
            claims: claims, requestor: requestor, device: deviceIdentifier, deviceInfo: try v1.deviceInfo(), redirectURIs: redirectURIs, app: app,
            client: ReportClient.adobeServices, appProfile: v1.reportAppProfile, visitor: v1.reportVisitor)
    }

    /// The body of a token whose signature verifies with a published media-token key, of the kind its parameter holds.
    private func verifiedBody(_ carried: Carried) async throws -> String {
        let (token, root, code, action): (String, String, EnhancedError.Code, EnhancedError.Action) =
            switch carried {
            case .authentication(let token): (token, "<simpleAuthenticationToken>", "invalid_authentication_token", "authentication")
            case .authorization(let token): (token, "<simpleAuthorizationToken>", "invalid_authorization_token", "authorization")
            }
        let refused = APIError(.v1(401, code, "The token is malformed, altered or was not issued by this service.", action: action))
        let marker = "<signatureInfo>"
        guard token.utf8.count <= 16 * 1024, token.hasPrefix(marker) else { throw refused }
        let rest = token.dropFirst(marker.count)
        guard let end = rest.range(of: marker), let signature = Data(base64Encoded: String(rest[..<end.lowerBound])) else { throw refused }
        let body = String(rest[end.upperBound...])
        guard body.hasPrefix(root) else { throw refused }
        let data = Data(body.utf8)
        let rsa = _RSA.Signing.RSASignature(rawRepresentation: signature)
        let published = try await keys.keys(purpose: .mediaToken).identities.values
        guard published.contains(where: { $0.privateKey.publicKey.isValidSignature(rsa, for: data, padding: .insecurePKCS1v1_5) }) else {
            throw refused
        }
        return body
    }

    /// The redirect URIs and software statement id of the still-active client (or HMAC key) a token was issued to.
    private func issuedClient(_ clientID: String) async throws -> ([String], String) {
        let revoked = APIError(
            .v1(
                401, "invalid_client_id", "The application the token was issued to is revoked or no longer approved: register again.",
                action: "application-registration"))
        if clientID.hasPrefix("hmac:") {
            guard try await legacy.activeLegacyAppKey(publicKey: String(clientID.dropFirst(5))) != nil else { throw revoked }
            return ([], "")
        }
        guard let client = try await clients.activeClient(id: clientID) else { throw revoked }
        return (client.redirectURIs, client.softwareId)
    }

    /// `ap_19` (NameID) and `ap_23` (SessionIndex), when sent, must be those of the token's sign-in. A sign-in that has
    /// ended or was replaced is left to the handler (`<pendingLogout>`).
    private func checkSignInHeaders(_ v1: V1Request, record: AdobeTokenRecord) async throws {
        let nameID: String? = v1.request.headers[HTTPField.Name("ap_19")!]
        let sessionIndex: String? = v1.request.headers[HTTPField.Name("ap_23")!]
        guard nameID != nil || sessionIndex != nil,
            let profile = try await profileStore.profile(
                requestor: record.requestorId, client: record.clientId, device: record.deviceId, mvpd: record.mvpdId),
            profile.notBefore == record.profileNotBefore
        else { return }
        // yt-dlp sends the element text as it is in the token, XML-escaped.
        if let nameID, nameID != profile.nameId, nameID != XMLEscape.html(profile.nameId) {
            throw APIError(.v1(401, "invalid_authentication_token", "ap_19 is not the NameID of the token's sign-in.", action: "authentication"))
        }
        if let sessionIndex, sessionIndex != (profile.sessionIndex ?? ""), sessionIndex != XMLEscape.html(profile.sessionIndex ?? "") {
            throw APIError(
                .v1(401, "invalid_authentication_token", "ap_23 is not the SessionIndex of the token's sign-in.", action: "authentication"))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: any CatalogReading, clients: any ClientStoring, legacy: any LegacyStoring, profileStore: any ProfileStoring, keys: ServiceKeys,
        clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.clients = clients
        self.legacy = legacy
        self.profileStore = profileStore
        self.keys = keys
        self.clock = clock
    }
}
