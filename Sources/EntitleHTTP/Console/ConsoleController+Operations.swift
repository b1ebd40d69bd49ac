import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The console's keys page (with what a rotation affects), the operators page, the changes log and the reports page.
extension ConsoleController {
    package func addOperationsRoutes(to group: RouterGroup<AdminContext>) {
        group.get("keys", use: keysPage)
        group.post("keys/:purpose/rotate") { request, context in
            let purpose = KeyPurpose(rawValue: try context.parameters.require("purpose"))
            return try await change(request, context, back: "/console/keys") { form in
                guard form.checked("confirm") else {
                    throw ConsoleFailure(status: .badRequest, "Confirm that you have read what the rotation affects.")
                }
                guard let delay = form["promoteAfter"].flatMap(Int64.init) else {
                    throw ConsoleFailure(status: .badRequest, "Give the seconds before the new key signs.")
                }
                if purpose.isMediaToken, delay < ServiceKeys.verifierCacheSeconds {
                    throw ConsoleFailure(
                        status: .badRequest,
                        "A media-token key must be published at least \(ServiceKeys.verifierCacheSeconds) s before it signs (video servers cache /keys/media-token that long); "
                            + "for an emergency rotation use `entitle admin keys rotate --force`.")
                }
                let key = try await service.keyOperations.rotate(purpose: purpose, promoteAfterSeconds: delay, actor: context.operatorIdentity.actor)
                return "New \(purpose.rawValue) key \(key.kid) is published and signs from \(Self.time(key.signsFrom)) UTC."
            }
        }
        group.get("operators", use: operatorsPage)
        group.post("operators/:username/unlock") { request, context in
            let username = try context.parameters.require("username")
            return try await change(request, context, back: "/console/operators") { _ in
                let forgotten = try await service.operatorChanges.unlock(username: username, actor: context.operatorIdentity.actor)
                return "\(username) is unlocked (\(forgotten) failed sign-in\(forgotten == 1 ? "" : "s") forgotten)."
            }
        }
        group.get("changes", use: changesPage)
        group.get("reports", use: reportsPage)
    }

    package func keysPage(_ request: Request, context: AdminContext) async throws -> Response {
        let keys = try await service.keyOperations.views()
        var purposes: [ConsoleKeysPage.Purpose] = []
        for purpose in KeyPurpose.known {
            purposes.append(
                .init(
                    purpose: purpose.rawValue, impact: try await service.keyOperations.rotationImpact(purpose: purpose),
                    defaultDelay: ServiceKeys.promotionDelay(purpose: purpose) / 1000,
                    keys: keys.filter { $0.purpose == purpose.rawValue }.map {
                        .init(kid: $0.kid, state: $0.state, createdAt: $0.createdAt, signsFrom: $0.signsFrom, retiredAt: $0.retiredAt ?? "")
                    }))
        }
        return pages.page(
            ConsoleKeysPage(purposes: purposes), title: "Keys", nav: .keys, identity: context.operatorIdentity,
            flash: ConsoleFlash(request: request))
    }

    package func operatorsPage(_ request: Request, context: AdminContext) async throws -> Response {
        var operators: [ConsoleOperatorsPage.Operator] = []
        for account in try await service.operatorChanges.allOperators() {
            let failures = try await service.operatorChanges.recentFailures(username: account.username)
            operators.append(
                .init(
                    username: account.username, role: account.role, state: account.disabled == 0 ? "active" : "disabled",
                    failures: failures, hasFailures: failures > 0))
        }
        return pages.page(
            ConsoleOperatorsPage(operators: operators), title: "Operators", nav: .operators, identity: context.operatorIdentity,
            flash: ConsoleFlash(request: request))
    }

    package func changesPage(_ request: Request, context: AdminContext) async throws -> Response {
        let sinceText = request.uri.queryParameters["since"].map(String.init) ?? ""
        var since = service.now - 7 * 86_400_000
        if !sinceText.isEmpty {
            guard let date = Self.parseLocalTime(sinceText) else {
                return pages.problem(
                    ConsoleFailure(status: .badRequest, "Give the time as 2026-11-24T08:00."), identity: context.operatorIdentity,
                    back: "/console/changes")
            }
            since = Int64(date.timeIntervalSince1970 * 1000)
        }
        let changes = try await service.changes.recorded(since: since).reversed().prefix(1000).map {
            let (before, after) = Self.differences($0.valueBefore, $0.valueAfter)
            return ConsoleChangesPage.Change(
                at: Self.time($0.at), actor: $0.actor, action: $0.action, target: $0.target, description: $0.description ?? "",
                before: before, after: after)
        }
        let sinceValue = String(Self.time(since).replacingOccurrences(of: " ", with: "T").prefix(16))
        return pages.page(
            ConsoleChangesPage(changes: changes, since: sinceValue), title: "Changes log", nav: .changes, identity: context.operatorIdentity,
            flash: ConsoleFlash(request: request))
    }

    /// The periods the reports page offers: (value, label, length, granularity).
    package static let periods: [(value: String, label: String, seconds: Int64, granularity: String)] = [
        ("1h", "Last hour, by minute", 3600, "minute"), ("24h", "Last 24 hours, by hour", 86_400, "hour"),
        ("7d", "Last 7 days, by day", 7 * 86_400, "day"), ("30d", "Last 30 days, by day", 30 * 86_400, "day"),
    ]

    package func reportsPage(_ request: Request, context: AdminContext) async throws -> Response {
        let query = request.uri.queryParameters
        let period = Self.periods.first { $0.value == query["period"].map(String.init) } ?? Self.periods[1]
        let requestors = try await service.requestors.views().map(\.id)
        let chosen = query["requestor"].map(String.init).flatMap { requestors.contains($0) ? $0 : nil }
        let end = (service.now / 60_000 + 1) * 60_000
        let start = end - period.seconds * 1000
        var parameters = [
            "start=" + Self.iso(start), "end=" + Self.iso(end), "granularity=" + period.granularity,
        ]
        if let chosen { parameters.append("requestor=" + chosen) }
        let filters = Self.reportFilters { query[Substring($0)].map(String.init) }
        parameters += filters.map { $0.name + "=" + Self.queryEncoded($0.value) }
        let breakdown = Self.breakdowns.first { $0.value == query["by"].map(String.init) } ?? Self.breakdowns[0]
        let charts: [ConsoleReportsPage.Chart] = [
            .init(id: "chart-signins", title: "Sign-ins"), .init(id: "chart-authorizations", title: "Authorizations"),
            .init(id: "chart-tokens", title: "Media tokens and preauthorizations"), .init(id: "chart-mvpd", title: "By MVPD"),
            .init(id: "chart-latency", title: "MVPD latency (ms)"), .init(id: "chart-platform", title: "By platform"),
            .init(id: "chart-breakdown", title: "By " + breakdown.label.lowercased()),
            .init(id: "chart-accounts", title: "Unique accounts and visitors by " + breakdown.label.lowercased()),
        ]
        let value = { (name: String) in filters.first { $0.name == name }?.value ?? "" }
        let content = ConsoleReportsPage(
            requestors: requestors.map { .init(id: $0, selected: $0 == chosen) },
            periods: Self.periods.map { .init(value: $0.value, label: $0.label, selected: $0.value == period.value) },
            query: parameters.joined(separator: "&"), start: Self.time(start), end: Self.time(end), granularity: period.granularity,
            charts: charts, breakdown: breakdown.value,
            breakdowns: Self.breakdowns.map { .init(value: $0.value, label: $0.label, selected: $0.value == breakdown.value) },
            clients: Self.choices(ReportClient.all, value("client")), ssos: Self.choices(Self.ssoKinds, value("sso")),
            hbas: Self.choices(["true", "false"], value("hba")), resource: value("resource"), reason: value("reason"), profile: value("profile"))
        return pages.page(
            content, title: "Reports", nav: .reports, identity: context.operatorIdentity, flash: ConsoleFlash(request: request))
    }

    /// The breakdowns the reports page offers (a report dimension each): (value, label).
    package static let breakdowns: [(value: String, label: String)] = [
        ("resource", "Resource"), ("reason", "Reason"), ("client", "Client family"), ("sso", "Single sign-on"), ("hba", "Home-based"),
        ("app", "Application"), ("profile", "Application profile"),
    ]

    /// The kinds of single sign-on of the reports' `sso` dimension.
    package static let ssoKinds = ["none", "apple", "platform", "service-token", "temppass", "degraded"]

    /// The filters of the page's form the report API is asked with: `client`, `sso` and `hba` from their fixed values,
    /// `resource`, `reason` and `profile` as typed (1 to 256 characters; the API refuses anything else).
    package static func reportFilters(_ parameter: (String) -> String?) -> [(name: String, value: String)] {
        var filters: [(name: String, value: String)] = []
        for (name, allowed) in [("client", ReportClient.all), ("sso", ssoKinds), ("hba", ["true", "false"])] {
            if let value = parameter(name), allowed.contains(value) { filters.append((name, value)) }
        }
        for name in ["resource", "reason", "profile"] {
            if let value = parameter(name)?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                value.count <= ReportRequest.maximumFilterLength
            {
                filters.append((name, value))
            }
        }
        return filters
    }

    /// A value as a query parameter (RFC 3986 unreserved characters kept).
    package static func queryEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// The options of a filter's list, `selected` the chosen one.
    package static func choices(_ values: [String], _ selected: String) -> [ConsoleReportsPage.Choice] {
        values.map { .init(id: $0, selected: $0 == selected) }
    }

    /// A time in milliseconds as ISO 8601 (UTC, seconds).
    package static func iso(_ milliseconds: Int64) -> String { Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format() }

    /// `2026-11-24T08:00` (an HTML date-time field, taken as UTC) or a full ISO 8601 time.
    package static func parseLocalTime(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text + ":00Z", strategy: .iso8601)
    }

    /// The values before and after of a changes-log entry, indented for reading. When both are objects, only the
    /// settings that differ are shown, with a count of the unchanged ones.
    package static func differences(_ before: String?, _ after: String?) -> (before: String, after: String) {
        func parse(_ text: String?) -> Any? {
            text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
        }
        guard let old = parse(before) as? [String: Any], let new = parse(after) as? [String: Any] else {
            return (pretty(parse(before), raw: before), pretty(parse(after), raw: after))
        }
        let changed = Set(old.keys).union(new.keys).filter { key in
            !(old[key].map { NSArray(object: $0) }?.isEqual(new[key].map { NSArray(object: $0) }) ?? (new[key] == nil))
        }
        let unchanged = Set(old.keys).union(new.keys).count - changed.count
        let note = unchanged > 0 ? "\n(\(unchanged) unchanged setting\(unchanged == 1 ? "" : "s") not shown)" : ""
        return (
            pretty(old.filter { changed.contains($0.key) }, raw: before) + note,
            pretty(new.filter { changed.contains($0.key) }, raw: after) + note
        )
    }

    /// A JSON value indented for reading (`raw` when it is not JSON, a dash when absent).
    package static func pretty(_ object: Any?, raw: String?) -> String {
        guard let object else { return raw ?? "–" }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return raw ?? "–" }
        return String(decoding: data, as: UTF8.self)
    }
}
