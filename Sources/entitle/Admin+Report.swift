import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin report`: the figures of `GET /admin/api/v1/reports`, read from the storage, as CSV or JSON.
    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a report of sign-ins, authorizations, media tokens and MVPD latency (as GET /admin/api/v1/reports does).",
            discussion: """
                Figures a running instance has counted reach the storage within its flush interval (10 seconds). \
                Example: entitle admin report mvpd platform --start 2026-11-01T00:00:00Z --granularity day --format csv
                """)
        @OptionGroup var admin: AdminStorageOptions
        @Argument(
            help:
                "Dimensions, in order (at most four): requestor, mvpd, platform, app, resource, client, sso, hba, reason, profile (none: totals)."
        )
        var dimensions: [String] = []
        @Option(help: "Range start, ISO 8601 (default: 24 hours before --end).") var start: String?
        @Option(help: "Range end, ISO 8601, exclusive (default: now).") var end: String?
        @Option(help: "Periods: minute (at most 7 days), hour, day or total.") var granularity = "hour"
        @Option(help: "Only this requestor.") var requestor: String?
        @Option(help: "Only this MVPD.") var mvpd: String?
        @Option(help: "Only this platform (iOS, tvOS, Android, AndroidTV, FireTV, Roku, web, other, unknown).") var platform: String?
        @Option(help: "Only this application (software statement id).") var app: String?
        @Option(help: "Only this resource (channel id).") var resource: String?
        @Option(help: "Only this client family (sdk, rest-v2, rest-v1, adobe-services).") var client: String?
        @Option(help: "Only this kind of sign-in (none, apple, platform, service-token, temppass, degraded).") var sso: String?
        @Option(help: "Only home-based (true) or other (false) sign-ins.") var hba: String?
        @Option(help: "Only this reason (the Enhanced Error Code of a denial or failure).") var reason: String?
        @Option(help: "Only this application profile (the AP-Application-Profile the app sent; other: past the bound).") var profile: String?
        @Option(help: "csv or json.") var format = "csv"

        func run() async throws {
            var parameters = ["granularity": granularity, "format": format]
            let given = [
                ("start", start), ("end", end), ("requestor", requestor), ("mvpd", mvpd), ("platform", platform), ("app", app),
                ("resource", resource), ("client", client), ("sso", sso), ("hba", hba), ("reason", reason), ("profile", profile),
            ]
            for (name, value) in given {
                if let value { parameters[name] = value }
            }
            let asked: ReportRequest
            do {
                asked = try ReportRequest(
                    dimensions: dimensions, parameters: parameters, accept: nil, now: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
            } catch {
                throw AdminFailure.exit(error.message)
            }
            let rows = try await Admin.withService(admin) { try await $0.reports.report(asked.query) }
            let document = ReportDocument(query: asked.query, rows: rows)
            if asked.csv {
                print(document.csv, terminator: "")
            } else {
                print(String(decoding: document.json, as: UTF8.self))
            }
        }
    }
}
