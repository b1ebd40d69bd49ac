import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// What a NOC does during an MVPD outage or a campaign, as `entitle admin degradation|temppass|mvpd refresh` does it:
/// degradation rules, TempPass MVPDs and resets (also in the shape of Adobe's Reset TempPass API,
/// `DELETE /reset-tempass/v3/reset[/generic]`), and reading MVPD metadata again. Same operations, same changes-log
/// entries as the CLI and the console.
extension AdminAPIController {
    package func addSupportRoutes(to group: RouterGroup<AdminContext>) {
        group.get("degradation-rules") { request, _ in
            let requestor = request.uri.queryParameters["requestor"].map(String.init)
            return Self.json(try await service.support.degradationRules(requestor: requestor).map(DegradationRuleView.init))
        }
        group.post("degradation-rules", use: addDegradationRule)
        group.delete("degradation-rules/:requestor/:mvpd/:rule") { _, context in
            let rule = try Self.degradationRule(try context.parameters.require("rule"))
            try await service.support.removeDegradationRule(
                requestor: try context.parameters.require("requestor"), mvpd: try context.parameters.require("mvpd"), rule: rule,
                actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }

        group.post("temppass") { request, context in
            let body = try await Self.decode(NewTempPass.self, request, context: context)
            try await service.mvpds.addTempPass(
                id: body.id, displayName: body.name, logoURL: body.logoURL ?? "", minutes: body.minutes ?? 10, resourceLimit: body.resources,
                requestors: body.requestors, actor: context.operatorIdentity.actor)
            return Self.json(try await service.mvpds.view(id: body.id), status: .created)
        }
        group.post("temppass/reset") { request, context in
            let body = try await Self.decode(TempPassReset.self, request, context: context)
            guard (body.all == true) != (body.device != nil || body.identity != nil), !(body.device != nil && body.identity != nil) else {
                throw AdminAPIError.make(400, "invalid_request", "give one of device, identity or all: true")
            }
            let count = try await service.support.resetTempPass(
                requestor: body.requestor, mvpd: body.mvpd ?? "TempPass", device: body.device, identity: body.identity,
                actor: context.operatorIdentity.actor)
            return Self.json(TempPassResetView(passes: count))
        }
        // Adobe's Reset TempPass API: 204 on success; `all` (or no value) resets every device or identity.
        group.delete("reset-tempass/v3/reset") { request, context in
            try await adobeTempPassReset(request, context, scope: "device_id", asIdentity: false)
        }
        group.delete("reset-tempass/v3/reset/generic") { request, context in
            try await adobeTempPassReset(request, context, scope: "key", asIdentity: true)
        }

        group.post("metadata-refresh") { request, context in
            let only = request.uri.queryParameters["mvpd"].map(String.init)
            let (changed, failures) = try await service.mvpds.refreshMetadata(only: only, actor: context.operatorIdentity.actor)
            return Self.json(MetadataRefreshView(changed: changed, failures: failures))
        }
    }

    /// `POST degradation-rules`: a rule in force from `start` (default now) to `end` (default `start` + `minutes`, 60).
    package func addDegradationRule(_ request: Request, context: AdminContext) async throws -> Response {
        let body = try await Self.decode(NewDegradationRule.self, request, context: context)
        let rule = try Self.degradationRule(body.rule)
        let start = try body.start.map { try Self.time($0, "start") } ?? Date(timeIntervalSince1970: Double(service.now) / 1000)
        let minutes = body.minutes ?? 60
        guard (1...525_600).contains(minutes) else { throw AdminAPIError.make(400, "invalid_value", "minutes is 1 to 525600") }
        let end = try body.end.map { try Self.time($0, "end") } ?? start.addingTimeInterval(Double(minutes) * 60)
        try await service.support.setDegradationRule(
            requestor: body.requestor, mvpd: body.mvpd, rule: rule, start: start, end: end, actor: context.operatorIdentity.actor)
        return Self.json(
            DegradationRuleView(
                requestor: body.requestor, mvpd: body.mvpd, rule: rule.rawValue, start: start.ISO8601Format(), end: end.ISO8601Format()),
            status: .created)
    }

    /// A degradation rule by Entitle's name (`authn-all`, `authz-all`, `authz-none`) or Adobe's (`AuthNAll`, `AuthZAll`,
    /// `AuthZNone`); anything else is a 400 `invalid_value`.
    static func degradationRule(_ name: String) throws -> DegradationRule {
        let folded = name.lowercased().filter { $0.isLetter }
        guard let rule = DegradationRule.known.first(where: { $0.rawValue.filter(\.isLetter) == folded }) else {
            throw AdminAPIError.make(400, "invalid_value", "rule \(name): use authn-all, authz-all or authz-none")
        }
        return rule
    }

    static func time(_ text: String, _ name: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw AdminAPIError.make(400, "invalid_value", "\(name): use an ISO 8601 time such as 2026-11-24T20:00:00Z")
        }
        return date
    }

    /// Adobe's `DELETE /reset-tempass/v3/reset` (`device_id`) and `/reset/generic` (`key`, a Promotional TempPass
    /// identity as the app sends it in `AP-TempPass-Identity`): `requestor_id` and `mvpd_id` required; `appId`,
    /// `deviceUser` and `environment` accepted and ignored.
    func adobeTempPassReset(_ request: Request, _ context: AdminContext, scope: String, asIdentity: Bool) async throws -> Response {
        let query = request.uri.queryParameters
        guard let requestor = query["requestor_id"].map(String.init), !requestor.isEmpty, let mvpd = query["mvpd_id"].map(String.init), !mvpd.isEmpty
        else {
            throw AdminAPIError.make(400, "invalid_request", "requestor_id and mvpd_id are required")
        }
        let value = query[Substring(scope)].map(String.init).flatMap { $0.isEmpty || $0 == "all" ? nil : $0 }
        _ = try await service.support.resetTempPass(
            requestor: requestor, mvpd: mvpd, device: asIdentity ? nil : value, identity: asIdentity ? value : nil,
            actor: context.operatorIdentity.actor)
        return Response(status: .noContent)
    }

    /// The body of `POST degradation-rules`.
    package struct NewDegradationRule: Decodable {
        package var requestor: String
        package var mvpd: String
        package var rule: String
        package var start: String?
        package var end: String?
        package var minutes: Int?
    }

    /// A degradation rule as listed.
    package struct DegradationRuleView: Encodable {
        package var requestor: String
        package var mvpd: String
        package var rule: String
        package var start: String
        package var end: String

        package init(requestor: String, mvpd: String, rule: String, start: String, end: String) {
            (self.requestor, self.mvpd, self.rule, self.start, self.end) = (requestor, mvpd, rule, start, end)
        }

        package init(_ record: DegradationRuleRecord) {
            func iso(_ ms: Int64) -> String { Date(timeIntervalSince1970: Double(ms) / 1000).ISO8601Format() }
            self.init(
                requestor: record.requestorId, mvpd: record.mvpdId, rule: record.rule.rawValue, start: iso(record.startsAt), end: iso(record.endsAt))
        }
    }

    /// The body of `POST temppass`.
    package struct NewTempPass: Decodable {
        package var id: String
        package var name: String
        package var logoURL: String?
        package var minutes: Int?
        package var resources: Int?
        package var requestors: [String]
    }

    /// The body of `POST temppass/reset`.
    package struct TempPassReset: Decodable {
        package var requestor: String
        package var mvpd: String?
        package var device: String?
        package var identity: String?
        package var all: Bool?
    }

    /// How many passes a reset removed.
    package struct TempPassResetView: Encodable {
        package var passes: Int
    }

    /// What `POST metadata-refresh` changed, and the MVPDs whose metadata could not be read (with why).
    package struct MetadataRefreshView: Encodable {
        package var changed: [String]
        package var failures: [String: String]
    }
}
