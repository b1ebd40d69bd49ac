import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// REST API v1, authorization side (protocol notes §3.12–3.18): `authorize` asks the MVPD once and stores the AuthZ token
/// for the decision's lifetime; `tokens/authz` reads it; `tokens/media` (alias `mediatoken`) signs short media tokens from
/// it without asking the MVPD again; `preauthorize`, `logout` and `tokens/usermetadata`. Decisions go through the same
/// ``DecisionService`` as REST v2 (degradation rules, TempPass, MVPD answers, metrics).
extension LegacyV1Controller {
    /// The `<authorization>` document of `authorize` and `tokens/authz` (§3.12, §3.14).
    package static func authorizationDocument(_ authorization: LegacyAuthorizationRecord) -> V1Document {
        V1Document(
            xmlRoot: "authorization",
            value: .object([
                ("expires", .string(String(authorization.notAfter))), ("mvpd", .string(authorization.mvpdId)),
                ("requestor", .string(authorization.requestorId)), ("resource", .string(authorization.resource)),
            ]))
    }

    package func addAuthorizationRoutes(api: Groups) {
        api.device.get("authorize") { request, context in
            let v1 = context.v1
            let caller = context.caller
            let resource = try v1.resource()
            let authorization = try await self.shared.v1Authorize(caller, resource: resource)
            return Self.authorizationDocument(authorization).response(v1.format)
        }
        api.device.get("tokens/authz") { request, context in
            let v1 = context.v1
            let caller = context.caller
            let resource = try v1.resource()
            let profile = try await self.shared.v1Profile(
                caller, missing: .v1(412, "authentication_session_missing", "User not authenticated", action: "authentication"),
                expired: .v1(412, "authentication_session_expired", "User not authenticated", action: "authentication"))
            guard
                let authorization = try await self.legacy.legacyAuthorization(
                    requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value, resource: resource),
                authorization.mvpdId == profile.mvpdId
            else {
                throw APIError(.v1(404, "authorization_not_found", "Not Found", action: "authorization"))
            }
            guard authorization.notAfter > self.now else { throw APIError(.v1(410, "authorization_expired", "Gone", action: "authorization")) }
            // A decision made before the current sign-in (perhaps of another subscriber) does not carry over.
            guard authorization.notBefore >= profile.notBefore else {
                throw APIError(.v1(404, "authorization_not_found", "Not Found", action: "authorization"))
            }
            return Self.authorizationDocument(authorization).response(v1.format)
        }
        for path in ["tokens/media", "mediatoken"] {
            api.device.get(RouterPath(path)) { request, context in
                try await self.v1MediaToken(context.v1, caller: context.caller)
            }
        }
        api.device.get("preauthorize") { request, context in
            let v1 = context.v1
            let caller = context.caller
            let profile = try await self.shared.v1Profile(
                caller, missing: .v1(412, "preauthorization_authentication_session_missing", "User not authenticated", action: "authentication"),
                expired: .v1(412, "preauthorization_authentication_session_expired", "User not authenticated", action: "authentication"))
            return try await self.v1Preauthorize(v1, requestor: caller.requestor, profile: profile, origin: caller.origin)
        }
        api.app.get("preauthorize/:code") { request, context in
            let v1 = context.v1
            let session = try await self.v1Code(context.caller, code: try context.parameters.require("code"))
            guard let requestor = try await self.catalog.requestor(id: session.requestorId),
                let profile = try await self.shared.checks.profile(requestor: session.requestorId, sessionCode: session.code)
            else {
                throw APIError(.v1(412, "preauthorization_authentication_session_missing", "User not authenticated", action: "authentication"))
            }
            return try await self.v1Preauthorize(
                v1, requestor: requestor, profile: profile,
                origin: ReportOrigin(session: session, client: ReportClient.restV1))
        }
        api.device.delete("logout") { request, context in
            let caller = context.caller
            _ = try await self.logout.signOut(
                Logout.Device(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value))
            return self.v1Empty()
        }
        api.device.get("tokens/usermetadata") { request, context in
            let v1 = context.v1
            let caller = context.caller
            let profile = try await self.shared.v1Profile(
                caller, missing: .v1(412, "authentication_session_missing", "User not authenticated", action: "authentication"),
                expired: .v1(412, "authentication_session_expired", "Authentication token expired", action: "authentication"))
            return try await self.shared.v1UserMetadata(profile, requestor: caller.requestor).response(v1.format)
        }
    }

    /// A short media token from a valid AuthZ token (authorizing first when there is none or it has expired).
    package func v1MediaToken(_ v1: V1Request, caller: CallerIdentity) async throws -> Response {
        let resource = try v1.resource()
        let profile = try await shared.v1Profile(
            caller, missing: .v1AuthnMissingForAuthz, expired: .v1AuthnExpiredForAuthz, invalidated: { .v1AuthnInvalidatedForAuthz })
        let now = self.now
        var authorization = try await legacy.legacyAuthorization(
            requestor: caller.requestor.id, client: caller.clientID,
            device: caller.device.value, resource: resource)
        if let existing = authorization, existing.notAfter <= now || existing.mvpdId != profile.mvpdId || existing.notBefore < profile.notBefore {
            authorization = nil
        }
        if authorization == nil { authorization = try await shared.v1Authorize(caller, resource: resource) }
        guard let authorization else { throw APIError(.internalServerError) }
        let token = try await mediaTokens.mediaTokenSigner(requestor: caller.requestor.id).token(
            resource: resource, profile: profile, requestor: caller.requestor.id, now: now)
        decisions.metrics.recordMediaToken(
            key: ReportKey(requestor: caller.requestor.id, mvpd: profile.mvpdId, origin: caller.origin), resource: resource, profile: profile,
            visitor: caller.visitor,
            at: now)
        return V1Document(
            xmlRoot: "play",
            value: .object([
                ("expires", .string(String(token.notAfter))), ("mvpdId", .string(authorization.mvpdId)), ("requestor", .string(caller.requestor.id)),
                ("resource", .string(resource)), ("serializedToken", .string(token.serializedToken)),
                ("userId", .string(Self.v1ScrambledUserID(profile))),
            ])
        ).response(v1.format)
    }

    /// `preauthorize`: one decision per resource of the comma-separated `resource` list, with item-level errors.
    package func v1Preauthorize(_ v1: V1Request, requestor: RequestorRecord, profile: ProfileRecord, origin: ReportOrigin) async throws -> Response {
        let resources = try v1.resource().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return try await shared.v1Preauthorize(resources, format: v1.format, requestor: requestor, profile: profile, origin: origin)
    }

    /// An opaque, stable user id for the media-token answer (`userId`), not the MVPD's own id.
    package static func v1ScrambledUserID(_ profile: ProfileRecord) -> String {
        String(Secrets.sha256Hex(profile.requestorId + "|" + profile.mvpdId + "|" + profile.userId).prefix(40))
    }
}
