import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// What REST API v1 and adobe-services share beyond the caller: the device's current profile, a stored decision (the
/// v1 AuthZ token that adobe-services' AuthZ token is a view of), preauthorization, user metadata and the MVPD list.
/// Both protocols' controllers hold this service; neither holds the other.
package struct LegacyProtocolService: ClockReading {
    /// The MVPD list and integrations.
    package let catalog: any CatalogReading
    /// The stored v1 decisions.
    package let legacy: any LegacyStoring
    package let decisions: DecisionService
    package let profiles: WireProfiles
    /// The profile lookup, expiry and resource limit shared with REST v2.
    package let checks: ProfileChecks
    package let clock: any ServiceClock

    /// The MVPD list (§3.4): the SDK's config document in XML, REST v2's configuration shape in JSON.
    package func v1Configuration(_ caller: CallerIdentity, v1: V1Request) async throws -> Response {
        let mvpds = try await catalog.mvpds(requestor: caller.requestor.id)
        if v1.format == .json {
            return JSONCoding.response(
                ConfigurationResponse(
                    device: caller.deviceInfo?.primaryHardwareType ?? "unknown", clientType: "clientless", os: caller.deviceInfo?.osName ?? "Unknown",
                    requestor: RequestorConfiguration(
                        id: caller.requestor.id, name: caller.requestor.name,
                        domains: caller.requestor.domains.map { .init(name: $0) }, mvpds: mvpds.map(\.configuration))))
        }
        return V1Document(
            xmlRoot: "config",
            value: .object([
                ("time", .int(now)),
                (
                    "requestor",
                    .object([
                        ("id", .string(caller.requestor.id)), ("name", .string(caller.requestor.name)),
                        ("mvpds", .array(element: "mvpd", mvpds.map(\.v1Configuration))),
                    ])
                ),
            ])
        ).response(.xml)
    }

    /// The device's most recent profile in force; `missing` when it has none, `expired` when all have expired,
    /// `invalidated` when it has none because the identity provider ended its sign-in.
    package func v1Profile(
        _ caller: CallerIdentity, missing: @escaping @autoclosure @Sendable () -> EnhancedError,
        expired: @escaping @autoclosure @Sendable () -> EnhancedError,
        invalidated: @escaping @Sendable () -> EnhancedError = { .v1AuthnInvalidated }
    ) async throws -> ProfileRecord {
        try await checks.currentProfile(
            requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value,
            failures: .init(missing: missing(), expired: expired(), invalidated: invalidated))
    }

    /// Asks for a decision (the MVPD, a degradation rule or TempPass) and stores it as the device's AuthZ token.
    package func v1Authorize(_ caller: CallerIdentity, resource: String) async throws -> LegacyAuthorizationRecord {
        let profile = try await v1Profile(
            caller, missing: .v1AuthnMissingForAuthz, expired: .v1AuthnExpiredForAuthz, invalidated: { .v1AuthnInvalidatedForAuthz })
        guard let mvpd = try await catalog.integratedMVPD(requestor: caller.requestor.id, mvpd: profile.mvpdId) else {
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
        try await legacy.upsertLegacyAuthorization(record)
        return record
    }

    /// Preauthorizes a list of resources for a profile: `resources[]` with item-level errors.
    package func v1Preauthorize(
        _ resources: [String], format: V1Format, requestor: RequestorRecord, profile: ProfileRecord, origin: ReportOrigin
    ) async throws -> Response {
        guard !resources.isEmpty else { throw APIError(.v1(400, "missing_resource", "The resource parameter is missing.")) }
        try checks.checkResourceCount(resources.count, requestor: requestor)
        guard let mvpd = try await catalog.integratedMVPD(requestor: requestor.id, mvpd: profile.mvpdId) else {
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
    package func v1UserMetadata(_ profile: ProfileRecord, requestor: RequestorRecord) async throws -> V1Document {
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

    package static func v1Value(_ value: JSONValue) -> V1Value {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? .int(Int64(number)) : .string(String(number))
        case .bool(let flag): return .bool(flag)
        case .array(let items): return .array(element: "value", items.map(v1Value))
        case .object(let fields): return .object(fields.sorted { $0.key < $1.key }.map { ($0.key, v1Value($0.value)) })
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: any CatalogReading, legacy: any LegacyStoring, decisions: DecisionService, profiles: WireProfiles, checks: ProfileChecks,
        clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.legacy = legacy
        self.decisions = decisions
        self.profiles = profiles
        self.checks = checks
        self.clock = clock
    }
}
