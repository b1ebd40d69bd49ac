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
        @OptionGroup var storage: StorageOptions
        @Argument(help: "Dimensions of the breakdown, in order: requestor, mvpd, platform, app (none: totals).")
        var dimensions: [String] = []
        @Option(help: "Range start, ISO 8601 (default: 24 hours before --end).") var start: String?
        @Option(help: "Range end, ISO 8601, exclusive (default: now).") var end: String?
        @Option(help: "Periods: minute (at most 7 days), hour, day or total.") var granularity = "hour"
        @Option(help: "Only this requestor.") var requestor: String?
        @Option(help: "Only this MVPD.") var mvpd: String?
        @Option(help: "Only this platform (iOS, tvOS, Android, AndroidTV, FireTV, Roku, web, other, unknown).") var platform: String?
        @Option(help: "Only this application (software statement id).") var app: String?
        @Option(help: "csv or json.") var format = "csv"

        func run() async throws {
            var parameters = ["granularity": granularity, "format": format]
            for (name, value) in [("start", start), ("end", end), ("requestor", requestor), ("mvpd", mvpd), ("platform", platform), ("app", app)] {
                if let value { parameters[name] = value }
            }
            let asked: ReportRequest
            do {
                asked = try ReportRequest(
                    dimensions: dimensions, parameters: parameters, accept: nil, now: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
            } catch {
                throw AdminFailure.exit(error.message)
            }
            let rows = try await Admin.withService(storage) { try await $0.reports.report(asked.query) }
            let document = ReportDocument(query: asked.query, rows: rows)
            if asked.csv {
                print(document.csv, terminator: "")
            } else {
                print(String(decoding: document.json, as: UTF8.self))
            }
        }
    }
}
