import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The console's requestor pages: integrations, apps, clients, degradation rules and TempPass of each requestor.
extension ConsoleController {
    package func addCatalogRoutes(to group: RouterGroup<AdminContext>) {
        group.get("requestors", use: requestorsPage)
        group.get("requestors/:id", use: requestorPage)
        group.post("requestors/:id/integrations/:mvpd") { request, context in
            let (id, mvpd) = (try context.parameters.require("id"), try context.parameters.require("mvpd"))
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                let enabled = form["enabled"] == "true"
                try await service.integrations.setEnabled(requestor: id, mvpd: mvpd, enabled: enabled, actor: context.operatorIdentity.actor)
                return "\(mvpd) is \(enabled ? "enabled" : "disabled") for \(id)."
            }
        }
        group.post("requestors/:id/statements") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                let uris = (form["redirectURIs"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
                let issued = try await service.applications.issueSoftwareStatement(
                    requestor: id, name: form["name"] ?? "", redirectURIs: uris, actor: context.operatorIdentity.actor)
                return "Software statement \(issued.id) issued: download it from the list and ship it in the app."
            }
        }
        group.get("statements/:id/download") { _, context in
            let id = try context.parameters.require("id")
            do {
                let jwt = try await service.applications.softwareStatementJWT(id: id)
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "application/jwt", .cacheControl: "no-store",
                        .contentDisposition: "attachment; filename=\"software-statement-\(id).jwt\"",
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: jwt)))
            } catch let error as AdminError {
                return pages.problem(
                    ConsoleFailure(status: .init(code: error.status), error.description), identity: context.operatorIdentity,
                    back: "/console/requestors")
            }
        }
        group.post("statements/:id/revoke") { request, context in
            let id = try context.parameters.require("id")
            let back = Self.requestorPath(request.uri.queryParameters["requestor"].map(String.init))
            return try await change(request, context, back: back) { _ in
                try await service.applications.revokeSoftwareStatement(id: id, actor: context.operatorIdentity.actor)
                return "Software statement \(id) is revoked: its apps can no longer register."
            }
        }
        group.post("clients/:id/revoke") { request, context in
            let id = try context.parameters.require("id")
            let back = Self.requestorPath(request.uri.queryParameters["requestor"].map(String.init))
            return try await change(request, context, back: back) { _ in
                try await service.applications.revokeClient(id: id, actor: context.operatorIdentity.actor)
                return "Client \(id) is revoked: its tokens no longer work."
            }
        }
        addOutageRoutes(to: group)
        addSettingRoutes(to: group)
    }

    /// Degradation rules and TempPass resets of a requestor.
    private func addOutageRoutes(to group: RouterGroup<AdminContext>) {
        group.post("requestors/:id/degradation") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let mvpd = form["mvpd"], let rule = form["rule"] else {
                    throw ConsoleFailure(status: .badRequest, "Choose an MVPD and a rule.")
                }
                guard let minutes = form["minutes"].flatMap(Int.init), (1...10_080).contains(minutes) else {
                    throw ConsoleFailure(status: .badRequest, "The length must be 1 to 10080 minutes.")
                }
                let start = Date(timeIntervalSince1970: Double(service.now) / 1000)
                try await service.support.setDegradationRule(
                    requestor: id, mvpd: mvpd, rule: DegradationRule(rawValue: rule), start: start,
                    end: start.addingTimeInterval(Double(minutes) * 60), actor: context.operatorIdentity.actor)
                return "\(rule) is in force for \(id)/\(mvpd) for \(minutes) minutes."
            }
        }
        group.post("requestors/:id/degradation/remove") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let mvpd = form["mvpd"], let rule = form["rule"] else {
                    throw ConsoleFailure(status: .badRequest, "Choose an MVPD and a rule.")
                }
                try await service.support.removeDegradationRule(
                    requestor: id, mvpd: mvpd, rule: DegradationRule(rawValue: rule), actor: context.operatorIdentity.actor)
                return "The \(rule) rule for \(id)/\(mvpd) is removed."
            }
        }
        group.post("requestors/:id/temppass/reset") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let mvpd = form["mvpd"], let device = form["device"] else {
                    throw ConsoleFailure(status: .badRequest, "Give the TempPass MVPD and the device id.")
                }
                let count = try await service.support.resetTempPass(requestor: id, mvpd: mvpd, device: device, actor: context.operatorIdentity.actor)
                return "TempPass of device \(device) reset (\(count) pass\(count == 1 ? "" : "es") removed)."
            }
        }
    }

    /// A requestor's authorization TTLs, media-token algorithm and legacy key pairs: the operations `entitle admin
    /// authz-ttl`, `requestor set-media-token-algorithm` and `legacy-key revoke` use.
    private func addSettingRoutes(to group: RouterGroup<AdminContext>) {
        group.post("requestors/:id/authorization-ttl") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let mvpd = form["mvpd"], let seconds = form["seconds"].flatMap({ Int64($0) }) else {
                    throw ConsoleFailure(status: .badRequest, "Choose an MVPD and give a number of seconds.")
                }
                try await service.integrations.setAuthorizationTTL(mvpd: mvpd, requestor: id, seconds: seconds, actor: context.operatorIdentity.actor)
                return "\(mvpd)'s authorization answers for \(id) are kept \(seconds) s."
            }
        }
        group.post("requestors/:id/media-token-algorithm") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let algorithm = form["algorithm"].flatMap(MediaTokenAlgorithm.init(name:)) else {
                    throw ConsoleFailure(status: .badRequest, "Choose rsa-sha256, ecdsa-p256-sha256 or ed25519.")
                }
                let key = try await service.keyOperations.setMediaTokenAlgorithm(requestor: id, algorithm, actor: context.operatorIdentity.actor)
                guard let key else { return "Media tokens of \(id) are signed with \(algorithm.rawValue)." }
                return
                    "Media tokens of \(id) use \(algorithm.rawValue): key \(key.kid) is published and signs from \(Self.time(key.signsFrom)) UTC (RSA until then)."
            }
        }
        group.post("requestors/:id/legacy-keys/revoke") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.requestorPath(id)) { form in
                guard let publicKey = form["publicKey"] else { throw ConsoleFailure(status: .badRequest, "Choose the key pair to revoke.") }
                guard try await service.keyOperations.legacyAppKeys(requestor: id).contains(where: { $0.publicKey == publicKey }) else {
                    throw ConsoleFailure(status: .notFound, "\(id) has no such key pair.")
                }
                try await service.keyOperations.revokeLegacyAppKey(publicKey: publicKey, actor: context.operatorIdentity.actor)
                return "The key pair is revoked: requests signed with it are refused."
            }
        }
    }

    package func requestorsPage(_ request: Request, context: AdminContext) async throws -> Response {
        let rows = try await service.requestors.views().map { r in
            ConsoleRequestorsPage.Row(
                id: r.id, name: r.name, domains: r.domains.joined(separator: ", "), disabled: r.disabled,
                integrationCount: r.integrations.count, enabledIntegrations: r.integrations.filter(\.enabled).count)
        }
        return pages.page(
            ConsoleRequestorsPage(requestors: rows), title: "Requestors", nav: .requestors, identity: context.operatorIdentity,
            flash: ConsoleFlash(request: request))
    }

    package func requestorPage(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let requestor: RequestorView
        do { requestor = try await service.requestors.view(id: id) } catch let error as AdminError where error.status != 403 {
            return pages.problem(
                ConsoleFailure(status: .notFound, error.description), identity: context.operatorIdentity, back: "/console/requestors")
        }
        let statements = try await service.applications.softwareStatements(requestor: id).map(SoftwareStatementView.init).map {
            ConsoleRequestorPage.Statement(softwareID: $0.softwareID, name: $0.name, issuedAt: $0.issuedAt, revoked: $0.revoked, requestorID: id)
        }
        let clients = try await service.applications.registeredClients(softwareID: nil, limit: 1000).map(ClientView.init)
            .filter { $0.requestor == id }.map {
                ConsoleRequestorPage.Client(
                    clientID: $0.clientID, softwareID: $0.softwareID, issuedAt: $0.issuedAt, revoked: $0.revoked, requestor: id)
            }
        let rules = try await service.support.degradationRules(requestor: id).map {
            ConsoleRequestorPage.Rule(mvpd: $0.mvpdId, rule: $0.rule.rawValue, start: Self.time($0.startsAt), end: Self.time($0.endsAt))
        }
        let ttls = try await service.integrations.authorizationTTLs().filter {
            $0.requestorId == id || $0.requestorId == AuthorizationTTLRecord.anyRequestor
        }.map { ConsoleRequestorPage.AuthorizationTTL(mvpd: $0.mvpdId, scope: $0.requestorId == id ? id : "every requestor", seconds: $0.ttlSeconds) }
        let algorithm =
            try await service.keyOperations.mediaTokenAlgorithms().first { $0.requestorId == id }?.algorithm ?? .rsaSHA256
        let legacyKeys = try await service.keyOperations.legacyAppKeys(requestor: id).map {
            ConsoleRequestorPage.LegacyKey(publicKey: $0.publicKey, createdAt: Self.time($0.createdAt), revoked: $0.revoked)
        }
        let content = ConsoleRequestorPage(
            requestor: .init(
                id: requestor.id, name: requestor.name, domains: requestor.domains.joined(separator: ", "),
                maxResources: requestor.maxResources, disabled: requestor.disabled,
                profileLifetime: requestor.defaultProfileTTLSeconds.map { "\($0) s" } ?? "as each MVPD sets",
                authorizationTTL: requestor.defaultAuthorizationTTLSeconds.map { "\($0) s" } ?? "as each MVPD sets",
                preflight: requestor.defaultPreflightMaxResources.map { "in calls of up to \($0) resources" } ?? "per resource"),
            integrations: requestor.integrations.map {
                .init(mvpd: $0.mvpd, enabled: $0.enabled, displayName: $0.displayName ?? "(the MVPD's own)")
            },
            statements: statements, clients: clients, rules: rules, authorizationTTLs: ttls, mediaTokenAlgorithm: algorithm.rawValue,
            algorithms: MediaTokenAlgorithm.all.map { .init(name: $0.rawValue, selected: $0 == algorithm) }, legacyKeys: legacyKeys)
        return pages.page(
            content, title: "Requestor \(id)", nav: .requestors, identity: context.operatorIdentity, flash: ConsoleFlash(request: request),
            withinScope: context.operatorIdentity.scope.requestors.contains(id))
    }

    /// The page of a requestor (the requestors list when none is known).
    package static func requestorPath(_ id: String?) -> String {
        guard let id, !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            return "/console/requestors"
        }
        return "/console/requestors/" + id
    }

    /// A time in milliseconds as the console shows it (UTC, minutes).
    package static func time(_ milliseconds: Int64) -> String {
        let text = Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format()
        return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
    }
}
