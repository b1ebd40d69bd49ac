import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import Testing

/// The reports count what happened: a scripted burst of sign-ins (one refused), authorizations (granted and denied),
/// plays (media tokens) and preauthorizations over REST v2 against the demo world, then the report API's figures
/// equal the counts of the requests made — on one instance, and with two instances on one database (PostgreSQL under
/// scripts/with-postgres.sh), whose figures add up.
@Suite struct ReportFlowTests {
    /// The burst of ``EntitleTesting/LocalService/reportBurst(decisionsVia:)``; `second`, when given, answers some of
    /// the decisions (the sign-ins and the others go through `first`).
    static func burst(_ first: LocalService, second: LocalService? = nil) async throws {
        try await first.reportBurst(decisionsVia: second)
    }

    /// The report API's JSON answer at `path` (an operator's bearer token).
    static func report(_ local: LocalService, token: String, _ path: String) async throws -> [String: Any] {
        let answer = try await AdminAPITests.call(local, .GET, path, token: token)
        #expect(answer.status == 200, "\(path): \(answer.text)")
        return answer.object
    }

    /// `start` and `end` of the query around the test clock's now.
    static func range(_ local: LocalService) -> String {
        let now = local.clock.now()
        return "start=\(now.addingTimeInterval(-3600).ISO8601Format())&end=\(now.addingTimeInterval(3600).ISO8601Format())"
    }

    static func number(_ row: [String: Any]?, _ name: String) -> Int { (row?[name] as? NSNumber)?.intValue ?? -1 }

    /// The figures of the burst, in totals and by platform.
    static func expectBurstFigures(_ local: LocalService, token: String, mvpdCalls: Int) async throws {
        let totals = try await report(local, token: token, "/admin/api/v1/reports?granularity=total&" + range(local))
        let rows = try #require(totals["rows"] as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["time"] == nil, "\(totals)")
        let total = rows.first
        let expected: [(String, Int)] = [
            ("authnAttempts", 3), ("authnSuccesses", 2), ("authnFailures", 1), ("authzAttempts", 4), ("authzGrants", 3),
            ("authzDenials", 1), ("authzFailures", 0), ("mediaTokens", 3), ("preauthorizations", 2), ("preauthGrants", 4),
            ("preauthDenials", 1), ("mvpdCalls", mvpdCalls),
        ]
        for (name, value) in expected { #expect(number(total, name) == value, "\(name) in \(totals)") }
        #expect(number(total, "mvpdLatencyMaxMs") >= 0)

        let byPlatform = try await report(local, token: token, "/admin/api/v1/reports/platform/mvpd?granularity=total&" + range(local))
        let platformRows = try #require(byPlatform["rows"] as? [[String: Any]])
        #expect(platformRows.map { $0["platform"] as? String } == ["AndroidTV", "iOS", "other"], "\(byPlatform)")
        #expect(platformRows.allSatisfy { $0["mvpd"] as? String == "DemoCable" })
        let ios = platformRows.first { $0["platform"] as? String == "iOS" }
        let tv = platformRows.first { $0["platform"] as? String == "AndroidTV" }
        let other = platformRows.first { $0["platform"] as? String == "other" }
        #expect(number(ios, "authzGrants") == 2 && number(ios, "mediaTokens") == 2 && number(ios, "authnSuccesses") == 1)
        #expect(number(tv, "authzGrants") == 1 && number(tv, "authzDenials") == 1 && number(tv, "preauthDenials") == 1)
        #expect(number(other, "authnAttempts") == 1 && number(other, "authnFailures") == 1 && number(other, "authzAttempts") == 0)

        // By hour: the same figures in the hour of the test clock; by app: the demo app's software statement.
        let hourly = try await report(local, token: token, "/admin/api/v1/reports/requestor?" + range(local))
        let hours = try #require(hourly["rows"] as? [[String: Any]])
        #expect(hours.reduce(0) { $0 + number($1, "mediaTokens") } == 3 && hours.allSatisfy { $0["requestor"] as? String == "REF" })
        #expect(hours.allSatisfy { ($0["time"] as? String)?.hasSuffix(":00:00Z") == true }, "\(hourly)")
        #expect(hourly["granularity"] as? String == "hour" && hourly["dimensions"] as? [String] == ["requestor"])
        let byApp = try await report(local, token: token, "/admin/api/v1/reports/app?granularity=total&platform=iOS&" + range(local))
        let apps = try #require(byApp["rows"] as? [[String: Any]])
        #expect(apps.count == 1 && (apps.first?["app"] as? String)?.isEmpty == false && number(apps.first, "mediaTokens") == 2, "\(byApp)")
    }

    @Test func theReportsEqualTheRequestsMade() async throws {
        try await LocalService.run { local in
            try await Self.burst(local)
            let session = try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            try await Self.expectBurstFigures(local, token: token, mvpdCalls: local.service.caches.authorizations.mvpdCalls)
            #expect(local.service.caches.authorizations.mvpdCalls > 0)

            // CSV: the same figures, RFC 4180, as a download.
            let csv = try await AdminAPITests.call(
                local, .GET, "/admin/api/v1/reports/platform?granularity=total&format=csv&" + Self.range(local), token: token)
            #expect(csv.status == 200)
            #expect(csv.headers.first(name: "Content-Type")?.hasPrefix("text/csv") == true)
            #expect(csv.headers.first(name: "Content-Disposition")?.hasPrefix("attachment; filename=\"entitle-report-platform-total-") == true)
            let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == "platform," + ReportDocument.figureNames.joined(separator: ","))
            #expect(lines.count == 4 && lines[2].hasPrefix("iOS,1,1,0,2,2,0,0,2,1,3,0,"), "\(csv.text)")
        }
    }

    @Test func twoInstancesOnOneDatabaseAddUp() async throws {
        try await LocalService.runTwoInstances { first, second in
            // The demo world was seeded last by the second instance: its DemoMVPD signs the subscribers in.
            try await Self.burst(second, second: first)
            let session = try await AdminAPITests.operatorSession(first, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            // Each instance writes its figures when asked for a report (and every 10 s, and at shutdown).
            _ = try await Self.report(first, token: token, "/admin/api/v1/reports?" + Self.range(first))
            #expect(first.service.metrics.reports.isEmpty)
            let calls = first.service.caches.authorizations.mvpdCalls + second.service.caches.authorizations.mvpdCalls
            try await Self.expectBurstFigures(second, token: token, mvpdCalls: calls)
        }
    }

    @Test func figuresOfEveryInstanceAddToTheSameRow() async throws {
        try await LocalService.run { local in
            let minute = ReportAccumulator.Minute(
                start: 1_800_000_000_000 - 1_800_000_000_000 % 60_000, key: .init(requestor: "REF", mvpd: "M", platform: "iOS", app: "a"))
            var one = ReportCounts()
            one.authzAttempts = 2
            one.mvpdCalls = 1
            one.mvpdLatencySumMs = 10
            one.mvpdLatencyMaxMs = 10
            var two = ReportCounts()
            two.authzAttempts = 3
            two.mvpdCalls = 1
            two.mvpdLatencySumMs = 30
            two.mvpdLatencyMaxMs = 30
            try await local.service.repository.reportStore.addReportCounts(minute, one)
            try await local.service.repository.reportStore.addReportCounts(minute, two)
            try await local.service.repository.reportStore.addReportCounts(minute, one)
            let rows = try await local.service.repository.reportStore.report(
                ReportQuery(start: minute.start, end: minute.start + 60_000, granularity: .minute, dimensions: [.mvpd]))
            #expect(rows.count == 1)
            #expect(rows.first?.time == minute.start && rows.first?.dimensions[.mvpd] == "M")
            #expect(rows.first?.counts.authzAttempts == 7 && rows.first?.counts.mvpdCalls == 3)
            #expect(rows.first?.counts.mvpdLatencySumMs == 50 && rows.first?.counts.mvpdLatencyMaxMs == 30)

            // Retention: figures older than the retention are purged with the other expired records.
            var repository = local.service.repository
            repository.reportRetention = 86_400_000
            try await repository.purgeExpired(now: minute.start + 3_600_000)
            #expect(try await repository.reportStore.report(ReportQuery(start: 0, end: minute.start + 60_000, granularity: .total)).count == 1)
            try await repository.purgeExpired(now: minute.start + 2 * 86_400_000)
            #expect(try await repository.reportStore.report(ReportQuery(start: 0, end: minute.start + 60_000, granularity: .total)).isEmpty)
        }
    }

    @Test func aFlushOfManyRowsWritesEachOnceInBatches() async throws {
        try await LocalService.run { local in
            let now = local.clock.nowMilliseconds()
            let rows = 2 * ReportStore.reportRowsPerStatement + 7
            for index in 0..<rows {
                let key = ReportKey(requestor: "REF", mvpd: "DemoCable", platform: "web", app: "app-\(1000 + index)")
                local.service.metrics.reports.count(key, at: now) { $0.mediaTokens += Int64(index + 1) }
            }
            try await local.service.reports.flush()
            try await local.service.reports.flush()
            #expect(local.service.metrics.reports.isEmpty)
            let report = try await local.service.reports.report(
                ReportQuery(start: now - 60_000, end: now + 60_000, granularity: .total, dimensions: [.app], filters: [.platform: "web"]))
            #expect(report.count == rows)
            #expect(report.map(\.dimensions[.app]) == (0..<rows).map { "app-\(1000 + $0)" })
            #expect(report.map(\.counts.mediaTokens) == (0..<rows).map { Int64($0 + 1) })
        }
    }

    @Test func figuresAreWrittenEveryFlushInterval() async throws {
        var configuration = HostConfiguration()
        configuration.rateLimitPerSecond = 0
        configuration.reportFlushInterval = .milliseconds(100)
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        try await EntitleHost.runOnLoopback(configuration: configuration, logger: logger, clock: ManualClock()) { host in
            let now = host.service.clock.nowMilliseconds()
            let key = ReportKey(requestor: "REF", mvpd: "DemoCable", platform: "iOS", app: "")
            host.service.metrics.reports.count(key, at: now) { $0.authnAttempts += 1 }
            let query = ReportQuery(start: now - 60_000, end: now + 60_000, granularity: .total)
            var rows: [ReportRow] = []
            for _ in 0..<100 where rows.isEmpty {
                try await Task.sleep(for: .milliseconds(50))
                // Read the database directly: no flush of this instance's figures on the way.
                rows = try await host.service.repository.reportStore.report(query)
            }
            #expect(rows.first?.counts.authnAttempts == 1)
        }
    }

    @Test func badReportRequestsAreRefusedWithAClearError() async throws {
        try await LocalService.run { local in
            let unauthenticated = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports")
            #expect(unauthenticated.status == 401 && unauthenticated.code == "unauthenticated")
            let session = try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            let empty = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports", token: token)
            #expect(empty.status == 200 && (empty.object["rows"] as? [Any])?.isEmpty == true, "\(empty.text)")
            #expect(empty.object["granularity"] as? String == "hour")
            // A parameter given twice: the last one counts (the console's page appends its own granularity).
            let twice = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/mvpd?granularity=hour&granularity=total", token: token)
            #expect(twice.status == 200 && twice.object["granularity"] as? String == "total", "\(twice.text)")
            let bad: [(String, String)] = [
                ("/admin/api/v1/reports/channel", "invalid_dimension"),
                ("/admin/api/v1/reports/mvpd/mvpd", "invalid_dimension"),
                ("/admin/api/v1/reports/mvpd/requestor/platform/app/extra", ""),
                ("/admin/api/v1/reports?start=yesterday", "invalid_date"),
                ("/admin/api/v1/reports?end=2026-13-45T99:00:00Z", "invalid_date"),
                ("/admin/api/v1/reports?start=2026-11-26T10:00:00Z&end=2026-11-26T09:00:00Z", "invalid_range"),
                ("/admin/api/v1/reports?granularity=minute&start=2026-01-01T00:00:00Z&end=2026-11-26T00:00:00Z", "invalid_range"),
                ("/admin/api/v1/reports?granularity=week", "invalid_granularity"),
                ("/admin/api/v1/reports?format=xml", "invalid_format"),
                ("/admin/api/v1/reports?mvpd=", "invalid_filter"),
                ("/admin/api/v1/reports?requestor=" + String(repeating: "x", count: 300), "invalid_filter"),
            ]
            for (path, code) in bad {
                let answer = try await AdminAPITests.call(local, .GET, path, token: token)
                if code.isEmpty {
                    #expect(answer.status == 404, "\(path): \(answer.status) \(answer.text)")
                } else {
                    #expect(answer.status == 400 && answer.code == code, "\(path): \(answer.status) \(answer.text)")
                    #expect((answer.object["message"] as? String)?.isEmpty == false)
                }
            }
        }
    }
}
