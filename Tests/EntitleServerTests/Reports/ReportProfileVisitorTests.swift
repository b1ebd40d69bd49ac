import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import SQLKit
import Testing

/// The application profile (`AP-Application-Profile`) as the reports' `profile` dimension and the visitor
/// (`AP-Visitor-Identifier`, REST v1's `ap_vi`) as their `uniqueVisitors`, over the real service (SQLite, and PostgreSQL
/// under scripts/with-postgres.sh): rows split by profile, sign-ins carrying the profile of the app that started them,
/// visitors counted distinct, a flood of made-up profiles ending in `other`, and migration 114 keeping the rows of a
/// database made before it.
@Suite struct ReportProfileVisitorTests {
    /// The two headers of a call.
    static func analytics(profile: String?, visitor: String?) -> [(String, String)] {
        var headers: [(String, String)] = []
        if let profile { headers.append(("AP-Application-Profile", profile)) }
        if let visitor { headers.append(("AP-Visitor-Identifier", visitor)) }
        return headers
    }

    /// An authorize call for `resource` with the two headers.
    static func play(_ client: RESTClient, _ resource: String, profile: String?, visitor: String?) async throws {
        let body = try JSONEncoder().encode(DecisionsRequest(resources: [resource]))
        let answer = try await client.send(
            .POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body, headers: analytics(profile: profile, visitor: visitor))
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test func profilesSplitTheRowsAndVisitorsAreCountedDistinct() async throws {
        try await LocalService.run { local in
            // The phone app signs alice in; its sessions call sends the profile and the first visitor, the browser leg
            // sends neither.
            let phone = try await local.client()
            let created = try await phone.send(
                .POST, "/api/v2/REF/sessions", form: [("mvpd", "DemoCable"), ("redirectUrl", "adobepass://ios.app")],
                headers: Self.analytics(profile: "phone-app", visitor: "ecid-1"))
            let session = try created.decode(SessionResponse.self)
            let url = try #require(session.url, "\(created.text)")
            guard
                case .external = try await DemoSignIn.signIn(
                    browser: local.browser(), authenticationURL: local.baseURL + url, username: "alice", password: "alice-pass")
            else {
                Issue.record("alice was not signed in")
                return
            }
            // Two visitors play on the phone app; one of them on the TV app (another profile) too; a call without the
            // headers counts in the row without a profile and adds no visitor.
            try await Self.play(phone, "news", profile: "phone-app", visitor: "ecid-1")
            try await Self.play(phone, "news", profile: "phone-app", visitor: "ecid-2")
            try await Self.play(phone, "sports", profile: "phone-app", visitor: "ecid-2")
            try await Self.play(phone, "news", profile: "tv-app", visitor: "ecid-1")
            try await Self.play(phone, "news", profile: nil, visitor: nil)

            let token = try await ReportDimensionTests.viewer(local)
            let byProfile = try await ReportDimensionTests.rows(local, token, "/admin/api/v1/reports/profile")
            #expect(byProfile.map { $0["profile"] as? String } == ["", "phone-app", "tv-app"], "\(byProfile)")
            let phoneRow = ReportDimensionTests.row(byProfile, "profile", "phone-app")
            let tvRow = ReportDimensionTests.row(byProfile, "profile", "tv-app")
            let noneRow = ReportDimensionTests.row(byProfile, "profile", "")
            // The sign-in counts for the app that created the session, with its visitor.
            #expect(ReportDimensionTests.number(phoneRow, "authnAttempts") == 1 && ReportDimensionTests.number(phoneRow, "authnSuccesses") == 1)
            #expect(ReportDimensionTests.number(phoneRow, "authzGrants") == 3 && ReportDimensionTests.number(phoneRow, "uniqueVisitors") == 2)
            #expect(ReportDimensionTests.number(tvRow, "authzGrants") == 1 && ReportDimensionTests.number(tvRow, "uniqueVisitors") == 1)
            #expect(ReportDimensionTests.number(noneRow, "authzGrants") == 1 && ReportDimensionTests.number(noneRow, "uniqueVisitors") == 0)
            #expect(ReportDimensionTests.number(noneRow, "authnSuccesses") == 0)
            // The same user everywhere: one account per row; two visitors over all rows.
            #expect(ReportDimensionTests.number(phoneRow, "uniqueAccounts") == 1 && ReportDimensionTests.number(tvRow, "uniqueAccounts") == 1)
            let totals = try await ReportDimensionTests.rows(local, token, "/admin/api/v1/reports")
            #expect(ReportDimensionTests.number(totals.first, "uniqueVisitors") == 2, "\(totals)")

            // As a filter, with another dimension, and in the CSV.
            let news = try await ReportDimensionTests.rows(local, token, "/admin/api/v1/reports/resource?profile=phone-app")
            #expect(news.map { $0["resource"] as? String } == ["", "news", "sports"], "\(news)")
            #expect(ReportDimensionTests.number(ReportDimensionTests.row(news, "resource", "news"), "uniqueVisitors") == 2)
            #expect(ReportDimensionTests.number(ReportDimensionTests.row(news, "resource", "sports"), "uniqueVisitors") == 1)
            let csv = try await AdminAPITests.call(
                local, .GET, "/admin/api/v1/reports/profile?granularity=total&format=csv&" + ReportFlowTests.range(local), token: token)
            #expect(csv.text.hasPrefix("profile,authnAttempts,") && csv.text.contains(",uniqueAccounts,uniqueVisitors\r\n"), "\(csv.text)")
            #expect(csv.text.contains("\r\ntv-app,"))
        }
    }

    @Test func restV1TakesTheProfileHeaderAndTheVisitorParameter() async throws {
        try await LocalService.run { local in
            // A Roku app over REST API v1: its registration code and its play name the profile (header) and the visitor
            // (`ap_vi`, as Adobe documents for v1); the sign-in in the browser sends neither.
            let rest = try await local.client(device: "roku-1")
            let tv = LegacyV1Client(host: local, identity: .bearer(rest), deviceID: "roku-1")
            let profile = [("AP-Application-Profile", "roku-app")]
            let created = try await tv.call(.POST, "/reggie/v1/REF/regcode", [("deviceId", "roku-1"), ("ap_vi", "ecid-v1")], headers: profile)
            let code = try #require(created.json?["code"] as? String, "\(created.text)")
            guard case .page(let landed) = try await tv.login(code: code, user: "bob"), landed.status == 200 else {
                Issue.record("bob not signed in")
                return
            }
            let play = try await tv.call(
                .GET, "/api/v1/mediatoken", [("requestor", "REF"), ("deviceId", "roku-1"), ("resource", "sports"), ("ap_vi", "ecid-v1")],
                headers: profile)
            #expect(play.status == 200, "\(play.text)")

            let token = try await ReportDimensionTests.viewer(local)
            let rows = try await ReportDimensionTests.rows(local, token, "/admin/api/v1/reports/profile/client")
            #expect(rows.map { "\($0["profile"] ?? "")/\($0["client"] ?? "")" } == ["roku-app/rest-v1"], "\(rows)")
            let row = rows.first
            #expect(ReportDimensionTests.number(row, "authnSuccesses") == 1 && ReportDimensionTests.number(row, "mediaTokens") == 1, "\(rows)")
            #expect(ReportDimensionTests.number(row, "uniqueVisitors") == 1 && ReportDimensionTests.number(row, "uniqueAccounts") == 1)
        }
    }

    @Test func aFloodOfMadeUpProfilesEndsInOther() async throws {
        try await LocalService.run { local in
            var client = try await local.client()
            client.deviceInfo.osName = "iOS"
            guard case .external = try await local.signIn(client, user: "alice").outcome else {
                Issue.record("alice was not signed in")
                return
            }
            let bound = local.service.metrics.appProfiles.limit
            for index in 0..<(bound + 5) { try await Self.play(client, "news", profile: "made-up-\(index)", visitor: "v-\(index)") }
            // Refused outright, whatever the bound: a character outside the set, and a value longer than 64 bytes.
            try await Self.play(client, "news", profile: "<script>", visitor: nil)
            try await Self.play(client, "news", profile: String(repeating: "p", count: 65), visitor: nil)
            // A profile admitted earlier in the hour keeps its name.
            try await Self.play(client, "news", profile: "made-up-0", visitor: nil)

            let token = try await ReportDimensionTests.viewer(local)
            let rows = try await ReportDimensionTests.rows(local, token, "/admin/api/v1/reports/profile")
            let named = rows.compactMap { $0["profile"] as? String }.filter { $0.hasPrefix("made-up-") }
            #expect(named.count == bound, "\(rows.count) rows")
            let other = ReportDimensionTests.row(rows, "profile", "other")
            #expect(ReportDimensionTests.number(other, "authzGrants") == 7 && ReportDimensionTests.number(other, "uniqueVisitors") == 5, "\(rows)")
            #expect(ReportDimensionTests.number(ReportDimensionTests.row(rows, "profile", "made-up-0"), "authzGrants") == 2)
            // Another requestor's names would have their own bound; the next hour admits names afresh.
            let labels = ReportLabels.appProfiles(limit: 2)
            let now: Int64 = 1_800_000_000_000
            #expect(["a", "b", "c"].map { labels.value(requestor: "REF", $0, at: now) } == ["a", "b", "other"])
            #expect(labels.value(requestor: "OTHER", "c", at: now) == "c")
            #expect(labels.value(requestor: "REF", "c", at: now + 3_600_000) == "c")
            #expect(labels.value(requestor: "REF", "other", at: now + 3_600_000) == "other")
            #expect(ReportAppProfile.of(nil) == "" && ReportAppProfile.of("") == "" && ReportAppProfile.of("tv app") == "other")
            #expect(ReportAppProfile.of("com.example.tv:roku/2") == "com.example.tv:roku/2")
        }
    }

    @Test func aVisitorIsAHashOfItsValue() {
        #expect(ReportVisitor.id(nil) == nil && ReportVisitor.id("") == nil && ReportVisitor.id(String(repeating: "v", count: 257)) == nil)
        #expect(ReportVisitor.id("ecid-1") == ReportVisitor.id("ecid-1") && ReportVisitor.id("ecid-1") != ReportVisitor.id("ecid-2"))
        // The first 8 bytes of SHA-256("abc") = ba7816bf8f01cfea, read big-endian.
        #expect(ReportVisitor.id("abc") == Int64(bitPattern: 0xba78_16bf_8f01_cfea))
    }

    @Test func migration114KeepsTheRowsOfAnOlderDatabase() async throws {
        try await ScratchEngines.withEach { engine in
            let sql = engine.sql
            // The database as version 118 left it: report_minutes keyed without app_profile, no report_visitors, sessions
            // without the two columns.
            let repository = Repository(sql: sql)
            let old = AuthSessionRecord(
                code: "OLDCODE", sessionId: "s-1", requestorId: "REF", clientId: "c-1", deviceId: "d-1", mvpdId: "DemoCable",
                status: .pending, createdAt: 1, notAfter: 4_000_000_000_000, platform: "iOS", app: "app", reportClient: "sdk")
            #expect(try await repository.sessionStore.insertSession(old))
            for statement in [
                "DROP TABLE report_minutes", Self.reportMinutes118, "DROP TABLE report_visitors",
                "ALTER TABLE auth_sessions DROP COLUMN app_profile", "ALTER TABLE auth_sessions DROP COLUMN report_visitor",
                "DELETE FROM schema_migrations WHERE version = 114",
            ] {
                try await sql.raw(SQLQueryString(statement)).run()
            }
            let minute: Int64 = 1_800_000_000_000 - 1_800_000_000_000 % 60_000
            let key = ReportKey(
                requestor: "REF", mvpd: "DemoCable", platform: "iOS", app: "app", resource: "news", client: "sdk", sso: "none", hba: "false")
            try await sql.raw(
                """
                INSERT INTO report_minutes (minute, requestor_id, mvpd_id, platform, app, authn_attempts, authn_successes, authn_failures,
                  authz_attempts, authz_grants, authz_denials, authz_failures, media_tokens, preauthorizations, preauth_grants,
                  preauth_denials, mvpd_calls, mvpd_latency_sum_ms, mvpd_latency_max_ms, resource, client, sso, hba, reason, row_key)
                VALUES (\(bind: minute), 'REF', 'DemoCable', 'iOS', 'app', 0, 0, 0, 3, 3, 0, 0, 3, 0, 0, 0, 1, 40, 40, 'news', 'sdk', 'none',
                  'false', '', \(bind: key.rowKey))
                """
            ).run()
            try await sql.raw(
                "INSERT INTO report_accounts (minute, row_key, account) VALUES (\(bind: minute), \(bind: key.rowKey), 42)"
            ).run()

            try await repository.migrate(logger: Logger(label: "test"))
            if sql.dialect.name == "postgresql" {
                // A second instance migrating at the same time finds the work done.
                try await sql.raw("DELETE FROM schema_migrations WHERE version = 114").run()
                try await Repository(sql: sql).migrate(logger: Logger(label: "test"))
            }
            #expect(try await repository.schemaVersion().pending.isEmpty)

            // The old row is there, without a profile, still linked to its account.
            let query = ReportQuery(start: minute, end: minute + 60_000, granularity: .total, dimensions: [.resource, .profile])
            var rows = try await repository.reportStore.report(query)
            #expect(rows.count == 1, "\(rows)")
            #expect(rows.first?.dimensions == [.resource: "news", .profile: ""])
            #expect(rows.first?.counts.authzGrants == 3 && rows.first?.counts.mvpdLatencyMaxMs == 40 && rows.first?.counts.uniqueAccounts == 1)
            // The same key adds to it (the widened primary key takes the old row); a profile makes a row of its own.
            var counts = ReportCounts()
            counts.authzGrants = 2
            counts.accounts = [42, 43]
            counts.visitors = [7]
            var withProfile = key
            withProfile.appProfile = "tv-app"
            var visitorOnly = ReportCounts()
            visitorOnly.authzGrants = 1
            visitorOnly.visitors = [7, 8]
            try await repository.reportStore.addReportCounts([
                (ReportMinute(start: minute, key: key), counts), (ReportMinute(start: minute, key: withProfile), visitorOnly),
            ])
            rows = try await repository.reportStore.report(query)
            #expect(rows.map { $0.dimensions[.profile] } == ["", "tv-app"], "\(rows)")
            #expect(rows.first?.counts.authzGrants == 5 && rows.first?.counts.uniqueAccounts == 2 && rows.first?.counts.uniqueVisitors == 1)
            #expect(rows.last?.counts.authzGrants == 1 && rows.last?.counts.uniqueVisitors == 2 && rows.last?.counts.uniqueAccounts == 0)
            let total = try await repository.reportStore.report(ReportQuery(start: minute, end: minute + 60_000, granularity: .total))
            #expect(total.first?.counts.uniqueVisitors == 2 && total.first?.counts.authzGrants == 6)
            #expect(
                try await repository.reportStore.report(
                    ReportQuery(start: minute, end: minute + 60_000, granularity: .total, filters: [.profile: "tv-app"])
                ).first?.counts.authzGrants == 1)

            // The session made before the migration reads back as it was; a new one keeps its profile and visitor.
            #expect(try await repository.sessionStore.session(code: "OLDCODE") == old)
            var new = old
            (new.code, new.appProfile, new.reportVisitor) = ("NEWCODE", "tv-app", ReportVisitor.id("ecid-1"))
            #expect(try await repository.sessionStore.insertSession(new))
            #expect(try await repository.sessionStore.session(code: "NEWCODE") == new)

            // Retention purges the visitors with the figures.
            try await repository.reportStore.purgeReports(before: minute + 60_000)
            let visitors = try await sql.raw("SELECT COUNT(*) AS n FROM report_visitors").first(decodingColumn: "n", as: Int64.self)
            #expect(visitors == 0)
        }
    }

    /// `report_minutes` as version 118 made it.
    static let reportMinutes118 = """
        CREATE TABLE report_minutes (
            minute BIGINT NOT NULL, requestor_id TEXT NOT NULL, mvpd_id TEXT NOT NULL, platform TEXT NOT NULL, app TEXT NOT NULL,
            authn_attempts BIGINT NOT NULL, authn_successes BIGINT NOT NULL, authn_failures BIGINT NOT NULL,
            authz_attempts BIGINT NOT NULL, authz_grants BIGINT NOT NULL, authz_denials BIGINT NOT NULL, authz_failures BIGINT NOT NULL,
            media_tokens BIGINT NOT NULL, preauthorizations BIGINT NOT NULL, preauth_grants BIGINT NOT NULL,
            preauth_denials BIGINT NOT NULL, mvpd_calls BIGINT NOT NULL, mvpd_latency_sum_ms BIGINT NOT NULL,
            mvpd_latency_max_ms BIGINT NOT NULL, resource TEXT NOT NULL, client TEXT NOT NULL, sso TEXT NOT NULL, hba TEXT NOT NULL,
            reason TEXT NOT NULL, row_key BIGINT NOT NULL,
            PRIMARY KEY (minute, requestor_id, mvpd_id, platform, app, resource, client, sso, hba, reason))
        """
}
