import _CryptoExtras
import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The adobe-services protocol of Adobe's AccessEnabler SDKs, DCR generation (protocol notes §4): `indiv/devices`,
/// `config/{requestor}`, `session`/`sessionDevice`, `authorize`/`authorizeDevice`, `shortAuthorize`/`deviceShortAuthorize`,
/// `preauthorize`, `getMetadata`/`getMetadataDevice`, and logout by AuthN token. Callers prove their app with a DCR
/// bearer token (header or `access_token` form field) or the v1 HMAC header. The state is REST v2's and v1's: an AuthN
/// token is a view of the device's profile, an AuthZ token of a v1 authorization. Answers are XML; errors are
/// `<error><status/><code/><message/><details/>…</error>`; a token whose sign-in ended elsewhere gets `<pendingLogout>`.
package struct AdobeServicesController: ClockReading {
    /// What this protocol shares with REST v1: profiles, decisions, preauthorization, user metadata, the MVPD list.
    package let shared: LegacyProtocolService
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    /// Profiles.
    package let profileStore: any ProfileStoring
    /// Legacy (v1, adobe-services) records.
    package let legacy: any LegacyStoring
    package let keys: ServiceKeys
    package let sessions: AuthenticationSessions
    package let mediaTokens: MediaTokenService
    package let profiles: WireProfiles
    package let clock: any ServiceClock

    /// The route groups: each renders failures as `<error>` (``LegacyEnvelopeMiddleware``); those with a
    /// ``LegacyContext`` have their caller established by ``LegacyCallerMiddleware``.
    package struct Groups {
        /// The throttled config documents (no caller), XML.
        package let config: RouterGroup<V1Context>
        /// `/adobe-services` calls of an app (no device), XML.
        package let app: RouterGroup<LegacyContext>
        /// `/adobe-services` calls of an app (no device) answered in JSON.
        package let appJSON: RouterGroup<LegacyContext>
        /// `/adobe-services` calls that name their device, XML.
        package let device: RouterGroup<LegacyContext>

        /// Creates the value from each of its stored properties.
        package init(
            config: RouterGroup<V1Context>, app: RouterGroup<LegacyContext>, appJSON: RouterGroup<LegacyContext>, device: RouterGroup<LegacyContext>
        ) {
            self.config = config
            self.app = app
            self.appJSON = appJSON
            self.device = device
        }
    }

    /// Adds the routes: `/indiv/devices` to the router, the rest to the groups.
    package func addRoutes(to router: Router<AppContext>, groups: Groups) {
        router.post("/indiv/devices") { request, context in try await self.individualize(request, context: context) }
        for prefix in ["/adobe-services", "/adobe-services/1.0"] {
            groups.config.get(RouterPath(prefix + "/config/:requestor")) { request, context in
                let requestorID = try context.v1.requestorID(path: try context.parameters.require("requestor"))
                guard let requestor = try await self.catalog.requestor(id: requestorID) else {
                    throw APIError(.v1(400, "invalid_requestor", "The requestor parameter is missing or invalid."))
                }
                let identity = CallerIdentity(
                    claims: AccessTokenClaims(
                        iss: "", sub: "", requestorID: requestorID, scopes: "", iat: 0, nbf: 0,
                        exp: 0, jti: ""),
                    requestor: requestor, device: DeviceIdentifier(rawValue: "none")!, deviceInfo: nil, redirectURIs: [])
                return try await shared.v1Configuration(identity, v1: context.v1)
            }
        }
        for name in ["session", "sessionDevice"] {
            groups.app.post(RouterPath(name)) { request, context in try await self.adobeSession(context.v1, caller: context.caller) }
        }
        for name in ["authorize", "authorizeDevice"] {
            groups.app.post(RouterPath(name)) { request, context in try await self.adobeAuthorize(context.v1, caller: context.caller) }
        }
        for name in ["shortAuthorize", "deviceShortAuthorize"] {
            groups.app.post(RouterPath(name)) { request, context in try await self.adobeShortAuthorize(context.v1, caller: context.caller) }
        }
        groups.app.post("preauthorize") { request, context in
            let (v1, caller) = (context.v1, context.caller)
            let (_, profile) = try await self.adobeAuthentication(v1, caller: caller, pendingReason: "34764")
            let resources = Self.repeatedFields("resource_id", in: v1.body)
            guard !resources.isEmpty else { throw APIError(.v1(400, "missing_resource", "resource_id is missing.")) }
            return try await shared.v1Preauthorize(resources, format: .xml, requestor: caller.requestor, profile: profile, origin: caller.origin)
        }
        // The user metadata of the AuthN token's sign-in (protocol notes §4.10): the SDK refreshes its `userMeta` with it.
        // The answer is REST v1's metadata document (§3.18) in JSON, keys listed in `encrypted` encrypted for the programmer.
        groups.appJSON.post("usermetadata") { request, context in
            let (_, profile) = try await self.adobeAuthentication(context.v1, caller: context.caller, pendingReason: "34764")
            return try await shared.v1UserMetadata(profile, requestor: context.caller.requestor).response(.json)
        }
        for name in ["getMetadata", "getMetadataDevice"] {
            groups.device.post(RouterPath(name)) { request, context in
                let caller = context.caller
                let hash = Secrets.sha256Hex(caller.requestor.id + "|" + caller.device.value)
                var value = hash
                if name == "getMetadataDevice", let key = try await self.profiles.metadataKey(requestor: caller.requestor),
                    let cipher = try? key.encrypt(Data(hash.utf8), padding: .PKCS1_OAEP_SHA256)
                {
                    value = Data(cipher).base64EncodedString()
                }
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: value)))
            }
        }
    }

    /// `POST /indiv/devices` `{"fingerprint": "…"}` → `{"deviceId": "…"}` and a `pass_sfp` header (§4.4).
    package func individualize(_ request: Request, context: AppContext) async throws -> Response {
        let text = try await FormBody.text(of: request, context: context, limit: 4096)
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let fingerprint = object["fingerprint"] as? String, !fingerprint.isEmpty, fingerprint.count <= 256
        else {
            throw APIError(EnhancedError.invalidRequest.with(details: "The body must be JSON: {\"fingerprint\": \"<hex>\"}."))
        }
        let deviceID = Secrets.sha256Hex("indiv|" + fingerprint)
        var response = JSONCoding.response(["deviceId": deviceID], status: .created)
        response.headers[.init("pass_sfp")!] = Secrets.randomToken(bytes: 16)
        return response
    }

    /// `session` (web: `reg_code`) / `sessionDevice` (native: `device_id`, optional `reg_code`): the AuthN token (§4.5).
    package func adobeSession(_ v1: V1Request, caller: CallerIdentity) async throws -> Response {
        let now = self.now
        var profile: ProfileRecord?
        var domain: String?
        if let raw = v1["reg_code"] {
            guard let code = RegistrationCode.normalize(raw), let session = try await sessionStore.session(code: code),
                session.requestorId == caller.requestor.id, session.clientId == caller.clientID, session.notAfter > now
            else {
                try await sessions.countFailedCodeLookup(bucket: caller.clientID)
                throw APIError(.v1(400, "invalid_registration_code", "The registration code is unknown or expired."))
            }
            if let device = v1["device_id"], device != session.deviceId {
                throw APIError(.v1(400, "invalid_device_id", "The device_id is not the device of the registration code."))
            }
            domain = session.domainName
            if session.status == .authenticated {
                profile = try await profileStore.profile(requestor: caller.requestor.id, sessionCode: session.code)
                if profile == nil {
                    profile = try await shared.checks.currentProfile(
                        requestor: caller.requestor.id, client: caller.clientID, device: session.deviceId)
                }
            }
        } else {
            let device = try v1.deviceID()
            profile = try await shared.checks.currentProfile(requestor: caller.requestor.id, client: caller.clientID, device: device.value)
            if profile == nil,
                !(try await legacy.adobeTokens(requestor: caller.requestor.id, client: caller.clientID, device: device.value)).isEmpty
            {
                try await legacy.deleteAdobeTokens(requestor: caller.requestor.id, client: caller.clientID, device: device.value)
                throw AdobePendingLogout(reason: "34764")
            }
        }
        guard let profile, shared.checks.isLive(profile) else {
            throw APIError(
                .v1(
                    401, "authentication_session_missing", "User not authenticated: sign in at the TV provider first.",
                    action: "authentication"))
        }
        let token = try await issueAuthnToken(profile: profile, domain: domain)
        let metadata = try await shared.v1UserMetadata(profile, requestor: caller.requestor).render(.json)
        return Self.xmlResult("<result>" + AdobeTokenXML.element("authnToken", token) + AdobeTokenXML.element("userMeta", metadata) + "</result>")
    }

    /// The AuthN token of a call (`authentication_token`) and its profile, or `<pendingLogout>` (thrown) when its sign-in
    /// has ended, was replaced, or belongs to another device or app.
    package func adobeAuthentication(_ v1: V1Request, caller: CallerIdentity, pendingReason: String) async throws -> (AdobeTokenRecord, ProfileRecord)
    {
        guard let token = v1["authentication_token"] else {
            throw APIError(.v1(400, "missing_authentication_token", "authentication_token is missing.", action: "authentication"))
        }
        return try await adobeProfile(
            guid: AdobeTokenXML.value(of: "simpleTokenAuthenticationGuid", in: token), v1: v1, caller: caller,
            pendingReason: pendingReason)
    }

    package func adobeProfile(guid: String?, v1: V1Request, caller: CallerIdentity, pendingReason: String) async throws -> (
        AdobeTokenRecord, ProfileRecord
    ) {
        guard let guid, guid.count == 32, let record = try await legacy.adobeToken(guid: guid) else {
            throw APIError(
                .v1(
                    400, "invalid_authentication_token", "The token is malformed or was not issued by this service.",
                    action: "authentication"))
        }
        guard record.requestorId == caller.requestor.id, record.clientId == caller.clientID else {
            throw APIError(
                .v1(
                    401, "authentication_session_issuer_mismatch", "The token was issued to another application.",
                    action: "authentication"))
        }
        if let device = v1["device_id"], device != record.deviceId { throw AdobePendingLogout(reason: pendingReason) }
        guard
            let profile = try await profileStore.profile(
                requestor: record.requestorId, client: record.clientId, device: record.deviceId,
                mvpd: record.mvpdId),
            profile.notBefore == record.profileNotBefore
        else { throw AdobePendingLogout(reason: pendingReason) }
        guard shared.checks.isLive(profile) else {
            throw APIError(.v1(401, "authentication_session_expired", "The authentication has expired: sign in again.", action: "authentication"))
        }
        return (record, profile)
    }

    /// `authorize` / `authorizeDevice`: one decision, stored (shared with REST v1), answered as an AuthZ token (§4.6).
    package func adobeAuthorize(_ v1: V1Request, caller: CallerIdentity) async throws -> Response {
        let (record, profile) = try await adobeAuthentication(v1, caller: caller, pendingReason: "34764")
        let resource = try v1.resource()
        if let mso = v1["mso_id"], mso != profile.mvpdId { throw APIError(.v1(400, "unknown_integration", "mso_id is not the token's MVPD.")) }
        let device = CallerIdentity(
            claims: caller.claims, requestor: caller.requestor, device: DeviceIdentifier(rawValue: record.deviceId)!,
            deviceInfo: caller.deviceInfo, redirectURIs: caller.redirectURIs, app: caller.app, client: caller.client,
            appProfile: caller.appProfile, visitor: caller.visitor)
        let authorization: LegacyAuthorizationRecord
        do {
            authorization = try await shared.v1Authorize(device, resource: resource)
        } catch let error as APIError where error.body.status == 403 {
            var headers = error.extraHeaders
            if error.body.code == .authorizationDeniedByDegradationRule { headers[.init("Authzf-Error-Code")!] = "authzNone" }
            throw APIError(error.body, headers: headers)
        }
        let token = try await issueAuthzToken(authorization, authnGUID: record.guid)
        var result = "<result>" + AdobeTokenXML.element("authzToken", token)
        if v1["userMeta"] == "1" {
            result += AdobeTokenXML.element("userMeta", try await shared.v1UserMetadata(profile, requestor: caller.requestor).render(.json))
        }
        return Self.xmlResult(result + "</result>")
    }

    /// `shortAuthorize` / `deviceShortAuthorize`: the Base64 short media token from a valid AuthZ token, no MVPD call (§4.7).
    package func adobeShortAuthorize(_ v1: V1Request, caller: CallerIdentity) async throws -> Response {
        guard let authz = v1["authz_token"], let resource = AdobeTokenXML.value(of: "simpleTokenResourceID", in: authz) else {
            throw APIError(.v1(400, "invalid_authorization_token", "authz_token is missing or malformed.", action: "authorization"))
        }
        let (record, profile) = try await adobeProfile(
            guid: AdobeTokenXML.value(of: "simpleTokenAuthenticationGuid", in: authz), v1: v1,
            caller: caller, pendingReason: "58772")
        guard
            let authorization = try await legacy.legacyAuthorization(
                requestor: record.requestorId, client: record.clientId,
                device: record.deviceId, resource: resource),
            authorization.mvpdId == profile.mvpdId, authorization.notBefore >= profile.notBefore
        else {
            throw APIError(.v1(403, "authorization_not_found", "There is no authorization for this resource.", action: "authorization"))
        }
        guard authorization.notAfter > now else {
            throw APIError(.v1(410, "authorization_expired", "The authorization has expired.", action: "authorization"))
        }
        let token = try await mediaTokens.mediaTokenSigner(requestor: caller.requestor.id).token(
            resource: resource, profile: profile, requestor: caller.requestor.id, now: now)
        shared.decisions.metrics.recordMediaToken(
            key: ReportKey(requestor: caller.requestor.id, mvpd: profile.mvpdId, origin: caller.origin), resource: resource, profile: profile,
            visitor: caller.visitor,
            at: now)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: token.serializedToken)))
    }

    package static func xmlResult(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/xml", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Every value of a repeated form field.
    package static func repeatedFields(_ name: String, in body: String) -> [String] {
        body.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, FormURLEncoding.parse(String(parts[0]) + "=").keys.first == name else { return nil }
            return FormURLEncoding.parse("v=" + parts[1])["v"]
        }.filter { !$0.isEmpty }
    }

    /// Creates the value from each of its stored properties.
    package init(
        shared: LegacyProtocolService, catalog: any CatalogReading, sessionStore: any SignInSessionStoring, profileStore: any ProfileStoring,
        legacy: any LegacyStoring,
        keys: ServiceKeys, sessions: AuthenticationSessions, mediaTokens: MediaTokenService, profiles: WireProfiles, clock: any ServiceClock
    ) {
        self.shared = shared
        self.catalog = catalog
        self.sessionStore = sessionStore
        self.profileStore = profileStore
        self.legacy = legacy
        self.keys = keys
        self.sessions = sessions
        self.mediaTokens = mediaTokens
        self.profiles = profiles
        self.clock = clock
    }
}

/// The token's sign-in ended elsewhere, was replaced, or is another device's: answered `<pendingLogout>`.
package struct AdobePendingLogout: Error {
    package let reason: String

    /// `<pendingLogout reason="…">true</pendingLogout>`: the client must drop its tokens.
    package var response: Response {
        AdobeServicesController.xmlResult("<pendingLogout reason=\"\(reason)\">true</pendingLogout>")
    }

    /// Creates the value from each of its stored properties.
    package init(reason: String) {
        self.reason = reason
    }
}
