import EntitleTesting
import Foundation
import Testing

/// The monitoring files in the repository match the service: after a scripted flow over REST v2 against the demo world
/// (sign-ins, one refused, authorizations granted and denied, preauthorizations), every series the Grafana dashboard
/// and the alert rules query exists in a real `/metrics` scrape, docs/metrics.md documents every metric the scrape
/// holds, and the ESM series carry only bounded label values.
@Suite struct MonitoringTests {
    static let packageRoot = PackageRoot.url

    /// The `entitle_…` series names in a file.
    static func seriesNames(in path: String) throws -> Set<String> {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "entitle_[a-z0-9_]+")
        return Set(
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    @Test func everySeriesTheDashboardAndTheAlertsQueryIsScraped() async throws {
        try await LocalService.run { local in
            try await ReportFlowTests.burst(local)
            let scrape = try await AdminAPITests.call(local, .GET, "/metrics")
            #expect(scrape.status == 200)
            let lines = scrape.text.split(separator: "\n")
            let series = Set(lines.filter { !$0.hasPrefix("#") }.map { String($0.prefix { $0 != "{" && $0 != " " }) })
            let dashboard = try Self.seriesNames(in: "packaging/grafana/entitle-dashboard.json")
            let alerts = try Self.seriesNames(in: "packaging/prometheus/entitle-alerts.yml")
            #expect(dashboard.count >= 10)
            for name in dashboard.union(alerts) { #expect(series.contains(name), "\(name) is queried but not in /metrics") }

            // docs/metrics.md names every metric family of the scrape.
            let docs = try String(contentsOf: Self.packageRoot.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
            let families = lines.filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) }
            #expect(families.count >= 10)
            for family in families { #expect(docs.contains("`\(family)`"), "docs/metrics.md does not list \(family)") }

            // Bounded labels: platforms from the fixed set.
            let platforms = lines.filter { $0.hasPrefix("entitle_media_tokens_total{") }.compactMap { line -> String? in
                guard let range = line.range(of: "platform=\"") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "\"" })
            }
            #expect(Set(platforms) == ["iOS", "AndroidTV"], "\(platforms)")
        }
    }
}
