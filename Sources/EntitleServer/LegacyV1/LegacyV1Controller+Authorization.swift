import EntitleCore
import Foundation
import Hummingbird

/// REST API v1, authorization side (protocol notes §3.12–3.18): `authorize` asks the MVPD once and stores the AuthZ token
/// for the decision's lifetime; `tokens/authz` reads it; `tokens/media` (alias `mediatoken`) signs short media tokens from
/// it without asking the MVPD again; `preauthorize`, `logout` and `tokens/usermetadata`. Decisions go through the same
/// ``DecisionService`` as REST v2 (degradation rules, TempPass, MVPD answers, metrics).
extension LegacyV1Controller {
    func addAuthorizationRoutes(to api: RouterGroup<AppContext>) {
        api.get("authorize") { request, context in
            try await self.v1(request, context: context) { v1 in
                let caller = try await self.legacyCaller(v1, requestorID: try v1.requestorID())
                let resource = try v1.resource()
                let authorization = try await self.v1Authorize(caller, resource: resource)
                return V1Document(
                    xmlRoot: "authorization",
                    value: .object([
                        ("expires", .string(String(authorization.notAfter))), ("mvpd", .string(authorization.mvpdId)),
                        ("requestor", .string(authorization.requestorId)), ("resource", .string(authorization.resource)),
                    ])
                ).response(v1.format)
            }
        }
        api.get("tokens/authz") { request, context in
            try await self.v1(request, context: context) { v1 in
                let caller = try await self.legacyCaller(v1, requestorID: try v1.requestorID())
                let resource = try v1.resource()
                let profile = try await self.v1Profile(
                    caller, missing: .v1(412, "authentication_session_missing", "User not authenticated", action: "authentication"),
                    expired: .v1(412, "authentication_session_expired", "User not authenticated", action: "authentication"))
                guard
                    let authorization = try await self.repository.legacyAuthorization(
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
                return V1Document(
                    xmlRoot: "authorization",
                    value: .object([
                        ("expires", .string(String(authorization.notAfter))), ("mvpd", .string(authorization.mvpdId)),
                        ("requestor", .string(authorization.requestorId)), ("resource", .string(authorization.resource)),
                    ])
                ).response(v1.format)
            }
        }
        for path in ["tokens/media", "mediatoken"] {
            api.get(RouterPath(path)) { request, context in
                try await self.v1(request, context: context) { v1 in try await self.v1MediaToken(v1) }
            }
        }
        api.get("preauthorize") { request, context in
            try await self.v1(request, context: context) { v1 in
                let caller = try await self.legacyCaller(v1, requestorID: try v1.requestorID())
                let profile = try await self.v1Profile(
                    caller, missing: .v1(412, "preauthorization_authentication_session_missing", "User not authenticated", action: "authentication"),
                    expired: .v1(412, "preauthorization_authentication_session_expired", "User not authenticated", action: "authentication"))
                return try await self.v1Preauthorize(v1, requestor: caller.requestor, profile: profile, origin: caller.origin)
            }
        }
        api.get("preauthorize/:code") { request, context in
            try await self.v1(request, context: context) { v1 in
                let session = try await self.v1Code(v1, requestor: try v1.requestorID(), code: try context.parameters.require("code"))
                guard let requestor = try await self.repository.requestor(id: session.requestorId),
                    let profile = try await self.repository.profile(requestor: session.requestorId, sessionCode: session.code),
                    profile.notAfter > self.now
                else {
                    throw APIError(.v1(412, "preauthorization_authentication_session_missing", "User not authenticated", action: "authentication"))
                }
                return try await self.v1Preauthorize(
                    v1, requestor: requestor, profile: profile,
                    origin: ReportOrigin(platform: session.platform ?? "unknown", app: session.app ?? ""))
            }
        }
        api.delete("logout") { request, context in
            try await self.v1(request, context: context) { v1 in
                let caller = try await self.legacyCaller(v1, requestorID: try v1.requestorID())
                let profiles = try await self.repository.profiles(
                    requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
                for profile in profiles {
                    _ = try await self.repository.deleteProfile(
                        requestor: caller.requestor.id, client: caller.clientID,
                        device: caller.device.value, mvpd: profile.mvpdId)
                }
                try await self.repository.deleteLegacyAuthorizations(
                    requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
                return self.v1Empty()
            }
        }
        api.get("tokens/usermetadata") { request, context in
            try await self.v1(request, context: context) { v1 in
                let caller = try await self.legacyCaller(v1, requestorID: try v1.requestorID())
                let profile = try await self.v1Profile(
                    caller, missing: .v1(412, "authentication_session_missing", "User not authenticated", action: "authentication"),
                    expired: .v1(412, "authentication_session_expired", "Authentication token expired", action: "authentication"))
                return try await self.v1UserMetadata(profile, requestor: caller.requestor).response(v1.format)
            }
        }
    }

    /// Asks for a decision (the MVPD, a degradation rule or TempPass) and stores it as the device's AuthZ token.
    func v1Authorize(_ caller: CallerIdentity, resource: String) async throws -> LegacyAuthorizationRecord {
        let profile = try await v1Profile(caller, missing: .v1AuthnMissingForAuthz, expired: .v1AuthnExpiredForAuthz)
        guard let mvpd = try await repository.integratedMVPD(requestor: caller.requestor.id, mvpd: profile.mvpdId) else {
            throw APIError(.v1(400, "unknown_integration", "The MVPD of this authentication is no longer integrated.", action: "configuration"))
        }
        let answers = try await decisions.decide(
            [resource], requestor: caller.requestor.id, mvpd: mvpd, profile: profile, issueTokens: true, origin: caller.origin,
            deliversTokens: false)
        guard let decision = answers.first else { throw APIError(.internalServerError) }
        guard decision.authorized else {
            var error = decision.error ?? EnhancedError.authorizationDeniedByMVPD
            if error.code == .invalidParameterResources { error = .v1(400, "malformed_authz_request", "The resource is malformed.") }
            throw APIError(error)
        }
        let record = LegacyAuthorizationRecord(
            requestorId: caller.requestor.id, clientId: caller.clientID, deviceId: caller.device.value,
            resource: resource, mvpdId: mvpd.id, notBefore: decision.notBefore ?? now,
            notAfter: decision.notAfter ?? now)
        try await repository.upsertLegacyAuthorization(record)
        return record
    }

    /// A short media token from a valid AuthZ token (authorizing first when there is none or it has expired).
    func v1MediaToken(_ v1: V1Request) async throws -> Response {
        let caller = try await legacyCaller(v1, requestorID: try v1.requestorID())
        let resource = try v1.resource()
        let profile = try await v1Profile(caller, missing: .v1AuthnMissingForAuthz, expired: .v1AuthnExpiredForAuthz)
        let now = self.now
        var authorization = try await repository.legacyAuthorization(
            requestor: caller.requestor.id, client: caller.clientID,
            device: caller.device.value, resource: resource)
        if let existing = authorization, existing.notAfter <= now || existing.mvpdId != profile.mvpdId || existing.notBefore < profile.notBefore {
            authorization = nil
        }
        if authorization == nil { authorization = try await v1Authorize(caller, resource: resource) }
        guard let authorization else { throw APIError(.internalServerError) }
        let token = try await mediaTokens.mediaTokenSigner(requestor: caller.requestor.id).token(
            resource: resource, profile: profile, requestor: caller.requestor.id, now: now)
        decisions.metrics.recordMediaToken(key: ReportKey(requestor: caller.requestor.id, mvpd: profile.mvpdId, origin: caller.origin), at: now)
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
    func v1Preauthorize(_ v1: V1Request, requestor: RequestorRecord, profile: ProfileRecord, origin: ReportOrigin) async throws -> Response {
        let resources = try v1.resource().split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return try await v1Preauthorize(resources, format: v1.format, requestor: requestor, profile: profile, origin: origin)
    }

    /// Preauthorizes a list of resources for a profile: `resources[]` with item-level errors.
    func v1Preauthorize(
        _ resources: [String], format: V1Format, requestor: RequestorRecord, profile: ProfileRecord, origin: ReportOrigin
    ) async throws -> Response {
        guard !resources.isEmpty else { throw APIError(.v1(400, "missing_resource", "The resource parameter is missing.")) }
        guard resources.count <= Int(requestor.maxResources) else {
            throw APIError(EnhancedError.tooManyResources.with(details: "At most \(requestor.maxResources) resources per request."))
        }
        guard let mvpd = try await repository.integratedMVPD(requestor: requestor.id, mvpd: profile.mvpdId) else {
            throw APIError(.v1(400, "unknown_integration", "The MVPD of this authentication is no longer integrated.", action: "configuration"))
        }
        let answers = try await decisions.decide(
            resources, requestor: requestor.id, mvpd: mvpd, profile: profile, issueTokens: false, origin: origin)
        let items: [V1Value] = answers.map { decision in
            var fields: [(String, V1Value)] = [("id", .string(decision.resource)), ("authorized", .bool(decision.authorized))]
            if let error = decision.error, case .object(let errorFields) = error.v1Document.value { fields.append(("error", .object(errorFields))) }
            return .object(fields)
        }
        return V1Document(xmlRoot: nil, value: .object([("resources", .array(element: "resource", items))]))
            .response(format, headers: [.init("Adobe-Request-Id")!: UUID().uuidString.lowercased(), .init("Adobe-Response-Confidence")!: "full"])
    }

    /// User metadata (§3.18): `updated`, `encrypted` (keys encrypted for the programmer) and `data`.
    func v1UserMetadata(_ profile: ProfileRecord, requestor: RequestorRecord) async throws -> V1Document {
        let answer = try await profiles.profilesAnswer([profile], requestor: requestor)
        guard let wire = answer.profiles[profile.mvpdId] else { throw APIError(.v1(404, "user_metadata_not_found", "Not Found")) }
        var data: [(String, V1Value)] = []
        var encrypted: [V1Value] = []
        for name in wire.attributes.keys.sorted() {
            guard let attribute = wire.attributes[name] else { continue }
            if attribute.state == .encrypted { encrypted.append(.string(name)) }
            data.append((name, Self.v1Value(attribute.value)))
        }
        return V1Document(
            xmlRoot: "metadata",
            value: .object([
                ("updated", .int(profile.notBefore / 1000)), ("encrypted", .array(element: "encrypted", encrypted)), ("data", .object(data)),
            ]))
    }

    static func v1Value(_ value: JSONValue) -> V1Value {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? .int(Int64(number)) : .string(String(number))
        case .bool(let flag): return .bool(flag)
        case .array(let items): return .array(element: "value", items.map(v1Value))
        case .object(let fields): return .object(fields.sorted { $0.key < $1.key }.map { ($0.key, v1Value($0.value)) })
        }
    }

    /// An opaque, stable user id for the media-token answer (`userId`), not the MVPD's own id.
    static func v1ScrambledUserID(_ profile: ProfileRecord) -> String {
        String(Secrets.sha256Hex(profile.requestorId + "|" + profile.mvpdId + "|" + profile.userId).prefix(40))
    }
}
