import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Applying a catalog document: checked as a whole first (nothing is applied when any part is wrong), then the plan,
/// then each change through the operations of its family, recorded in the changes log with the description
/// `catalog.apply`.
extension CatalogOperations {
    /// Plans and (unless `dryRun`) applies `document`; `source` names it in errors (the file name). With `prune`, what
    /// the service has and the document does not name is removed (software statements revoked).
    package func apply(_ document: CatalogDocument, source: String, dryRun: Bool, prune: Bool, actor: String) async throws -> CatalogPlan {
        if !dryRun { try OperatorReach.requireServiceWide("applying a catalog") }
        let current = try await export()
        var issues = CatalogValidation.issues(document, current: current, prune: prune)
        let filled = fillingSecrets(document, from: current, issues: &issues)
        guard issues.isEmpty else { throw CatalogIssue.refusal(issues, source: source) }
        let desired = keepingUnremovable(filled.normalized(), current: current)
        let items = plan(desired, current: current, prune: prune)
        guard !dryRun else { return CatalogPlan(items: items, applied: false, dryRun: true, prune: prune) }
        let given = ChangeDescription.current
        let description = given.map { Self.changeDescription + ": " + $0 } ?? Self.changeDescription
        try await ChangeDescription.$current.withValue(String(description.prefix(ChangeDescription.maximumLength))) {
            try await carryOut(items, desired: desired, current: current, actor: actor)
        }
        return CatalogPlan(items: items, applied: true, dryRun: false, prune: prune)
    }

    /// The document with each secret whose value is not at hand (its file absent) given the service's value; a secret
    /// the service does not have either is a problem.
    func fillingSecrets(_ document: CatalogDocument, from current: CatalogDocument, issues: inout [CatalogIssue]) -> CatalogDocument {
        let currentMVPDs = Dictionary(current.mvpds.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return document.mappingSecrets { path, secret in
            guard secret.value == nil else { return secret }
            let index = path.dropFirst("mvpds[".count).prefix { $0 != "]" }
            let id = Int(index).map { document.mvpds[$0].id } ?? ""
            let existing = path.hasSuffix(".authorization.key") ? currentMVPDs[id]?.authorization?.key : currentMVPDs[id]?.oauth2?.clientSecret
            guard let value = existing?.value else {
                issues.append(
                    CatalogIssue(
                        path,
                        "the secret's file \(secret.file ?? "?") was not found, and the service has no value for it (write the file, or export with --secrets-dir)"
                    ))
                return secret
            }
            return CatalogSecret(file: secret.file, value: value)
        }
    }

    /// Authorization TTLs can be set but not removed: one the service has and the document leaves out is kept.
    func keepingUnremovable(_ desired: CatalogDocument, current: CatalogDocument) -> CatalogDocument {
        var copy = desired
        let mvpds = Dictionary(current.mvpds.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for index in copy.mvpds.indices where copy.mvpds[index].authorization?.ttlSeconds == nil {
            guard let ttl = mvpds[copy.mvpds[index].id]?.authorization?.ttlSeconds else { continue }
            var authorization = copy.mvpds[index].authorization ?? CatalogDocument.Authorization()
            authorization.ttlSeconds = ttl
            copy.mvpds[index].authorization = authorization
        }
        let integrations = Dictionary(current.integrations.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for index in copy.integrations.indices where copy.integrations[index].authorizationTTLSeconds == nil {
            copy.integrations[index].authorizationTTLSeconds = integrations[copy.integrations[index].id]?.authorizationTTLSeconds
        }
        return copy
    }

    /// The plan: each entity of the document against the service's, then what the service has beyond the document.
    func plan(_ desired: CatalogDocument, current: CatalogDocument, prune: Bool) -> [CatalogPlan.Item] {
        var items: [CatalogPlan.Item] = []
        func compare<T: Encodable & Equatable>(_ kind: String, _ wanted: [T], _ existing: [T], id: (T) -> String, skip: (T) -> Bool = { _ in false })
        {
            let byID = Dictionary(existing.map { (id($0), $0) }, uniquingKeysWith: { a, _ in a })
            for entity in wanted {
                guard let before = byID[id(entity)] else {
                    items.append(CatalogPlan.Item(kind: kind, id: id(entity), action: .create))
                    continue
                }
                let fields = CatalogDiff.changedFields(from: before, to: entity)
                items.append(
                    CatalogPlan.Item(kind: kind, id: id(entity), action: fields.isEmpty ? .unchanged : .update, fields: fields.isEmpty ? nil : fields)
                )
            }
            let named = Set(wanted.map(id))
            for entity in existing where !named.contains(id(entity)) && !skip(entity) {
                items.append(CatalogPlan.Item(kind: kind, id: id(entity), action: prune ? .remove : .notInFile))
            }
        }
        compare("requestor", desired.requestors, current.requestors, id: \.id)
        compare("mvpd", desired.mvpds, current.mvpds, id: \.id)
        compare("integration", desired.integrations, current.integrations, id: \.id)
        compare("sso-issuer", desired.ssoIssuers, current.ssoIssuers, id: \.id)
        compare("software-statement", desired.softwareStatements, current.softwareStatements, id: \.id, skip: { $0.revoked == true })
        return items
    }

    /// Carries out the plan: creations and updates in dependency order, then removals in the reverse order.
    func carryOut(_ items: [CatalogPlan.Item], desired: CatalogDocument, current: CatalogDocument, actor: String) async throws {
        func entities<T>(_ list: [T], _ id: (T) -> String) -> [String: T] { Dictionary(list.map { (id($0), $0) }, uniquingKeysWith: { a, _ in a }) }
        let (wantedRequestors, haveRequestors) = (entities(desired.requestors, \.id), entities(current.requestors, \.id))
        let (wantedMVPDs, haveMVPDs) = (entities(desired.mvpds, \.id), entities(current.mvpds, \.id))
        let (wantedIntegrations, haveIntegrations) = (entities(desired.integrations, \.id), entities(current.integrations, \.id))
        let wantedIssuers = entities(desired.ssoIssuers, \.id)
        let (wantedStatements, haveStatements) = (entities(desired.softwareStatements, \.id), entities(current.softwareStatements, \.id))
        for item in items where item.action == .create || item.action == .update {
            switch item.kind {
            case "requestor": try await saveRequestor(wantedRequestors[item.id]!, current: haveRequestors[item.id], actor: actor)
            case "mvpd": try await saveMVPD(wantedMVPDs[item.id]!, current: haveMVPDs[item.id], actor: actor)
            case "integration": try await saveIntegration(wantedIntegrations[item.id]!, current: haveIntegrations[item.id], actor: actor)
            case "sso-issuer":
                let issuer = wantedIssuers[item.id]!
                try await ssoIssuers.add(
                    SSOOperations.Registration(
                        id: issuer.id, type: issuer.type, issuer: issuer.issuer, publicKeys: issuer.publicKeys ?? [], jwksURL: issuer.jwksURL,
                        audience: issuer.audience, requestors: issuer.requestors), actor: actor)
            case "software-statement": try await saveStatement(wantedStatements[item.id]!, current: haveStatements[item.id], actor: actor)
            default: break
            }
        }
        let removals = items.filter { $0.action == .remove }
        let order = ["software-statement", "sso-issuer", "integration", "mvpd", "requestor"]
        for kind in order {
            for item in removals where item.kind == kind {
                switch kind {
                case "software-statement": try await applications.revokeSoftwareStatement(id: item.id, actor: actor)
                case "sso-issuer": try await ssoIssuers.remove(id: item.id, actor: actor)
                case "integration":
                    let integration = haveIntegrations[item.id]!
                    // Gone already when its requestor or MVPD went first (never: removals run integrations first).
                    guard try await !onboarding.integrations(requestor: integration.requestor, mvpd: integration.mvpd).isEmpty else { continue }
                    try await integrations.remove(requestor: integration.requestor, mvpd: integration.mvpd, actor: actor)
                case "mvpd":
                    if haveMVPDs[item.id]?.disabled != true { try await mvpds.setDisabled(id: item.id, true, actor: actor) }
                    try await mvpds.remove(id: item.id, actor: actor)
                case "requestor":
                    if haveRequestors[item.id]?.disabled != true { try await requestors.setDisabled(id: item.id, true, actor: actor) }
                    try await requestors.remove(id: item.id, actor: actor)
                default: break
                }
            }
        }
    }

    /// Creates or updates a requestor: its settings, its media-token algorithm, disabled or not.
    func saveRequestor(_ wanted: CatalogDocument.Requestor, current: CatalogDocument.Requestor?, actor: String) async throws {
        let record = RequestorRecord(
            id: wanted.id, name: wanted.name, domains: wanted.domains ?? [], maxResources: wanted.maxResources ?? 5,
            metadataCertificatePem: wanted.programmerCertificate, defaultProfileTtlSeconds: wanted.defaultProfileTTLSeconds,
            defaultAuthzTtlSeconds: wanted.defaultAuthorizationTTLSeconds, defaultPreflightMaxResources: wanted.defaultPreflightMaxResources)
        var settings = wanted, before = current
        (settings.disabled, settings.mediaTokenAlgorithm) = (nil, nil)
        before?.disabled = nil
        before?.mediaTokenAlgorithm = nil
        if current == nil {
            try await requestors.add(record, actor: actor)
        } else if settings != before {
            try await requestors.update(record, actor: actor)
        }
        if wanted.mediaTokenAlgorithm != current?.mediaTokenAlgorithm {
            _ = try await keyOperations.setMediaTokenAlgorithm(
                requestor: wanted.id, MediaTokenAlgorithm(rawValue: wanted.mediaTokenAlgorithm ?? MediaTokenAlgorithm.rsaSHA256.rawValue),
                actor: actor)
        }
        if (wanted.disabled ?? false) != (current?.disabled ?? false) {
            try await requestors.setDisabled(id: wanted.id, wanted.disabled ?? false, actor: actor)
        }
    }

    /// Creates or updates an integration: enabled, its overrides, authorization TTL, preflight and HBA policy.
    func saveIntegration(_ wanted: CatalogDocument.Integration, current: CatalogDocument.Integration?, actor: String) async throws {
        let before = current ?? CatalogDocument.Integration(requestor: wanted.requestor, mvpd: wanted.mvpd)
        let (requestor, mvpd) = (wanted.requestor, wanted.mvpd)
        if current == nil || wanted.enabled != before.enabled {
            try await integrations.setEnabled(requestor: requestor, mvpd: mvpd, enabled: wanted.enabled ?? true, actor: actor)
        }
        if (wanted.displayName, wanted.logoURL, wanted.profileTTLSeconds) != (before.displayName, before.logoURL, before.profileTTLSeconds) {
            try await integrations.setSettings(
                requestor: requestor, mvpd: mvpd, displayName: wanted.displayName ?? "", logoURL: wanted.logoURL ?? "",
                profileTTLSeconds: wanted.profileTTLSeconds ?? 0, actor: actor)
        }
        if let seconds = wanted.authorizationTTLSeconds, seconds != before.authorizationTTLSeconds {
            try await integrations.setAuthorizationTTL(mvpd: mvpd, requestor: requestor, seconds: seconds, actor: actor)
        }
        if wanted.preflightMaxResources != before.preflightMaxResources {
            try await integrations.setPreflight(requestor: requestor, mvpd: mvpd, maxResources: wanted.preflightMaxResources ?? 0, actor: actor)
        }
        if wanted.preflightLineupAttribute != before.preflightLineupAttribute {
            try await integrations.setPreflightMode(
                requestor: requestor, mvpd: mvpd, wanted.preflightLineupAttribute == nil ? .mvpd : .lineup,
                attribute: wanted.preflightLineupAttribute,
                actor: actor)
        }
        if wanted.hba != before.hba {
            try await integrations.setHBAPolicy(
                requestor: requestor, mvpd: mvpd,
                IntegrationOperations.HBAChange(
                    profileTTLSeconds: wanted.hba?.profileTTLSeconds ?? 0, deniedResources: wanted.hba?.deniedResources ?? []),
                actor: actor)
        }
    }

    /// Creates a software statement with the document's id (the JWT is signed by this service's key), or revokes it.
    func saveStatement(_ wanted: CatalogDocument.SoftwareStatement, current: CatalogDocument.SoftwareStatement?, actor: String) async throws {
        if current == nil {
            try await clients.insertSoftwareStatement(
                SoftwareStatementRecord(
                    softwareId: wanted.id, requestorId: wanted.requestor, name: wanted.name, redirectURIs: wanted.redirectURIs,
                    issuedAt: Int64(clock.now().timeIntervalSince1970), revoked: wanted.revoked ?? false,
                    serverToServer: wanted.serverToServer ?? false))
            var after = ["requestor": wanted.requestor, "name": wanted.name, "redirectURIs": wanted.redirectURIs.joined(separator: " ")]
            if wanted.serverToServer == true { after["serverToServer"] = "true" }
            if wanted.revoked == true { after["status"] = "revoked" }
            try await changes.record(actor: actor, action: "software-statement.create", target: wanted.id, after: after)
        } else if wanted.revoked == true && current?.revoked != true {
            try await applications.revokeSoftwareStatement(id: wanted.id, actor: actor)
        }
        if let proxy = wanted.proxyMVPD, proxy != current?.proxyMVPD {
            try await proxyMVPDs.allowSoftwareStatement(wanted.id, proxy: proxy, actor: actor)
        }
    }
}
