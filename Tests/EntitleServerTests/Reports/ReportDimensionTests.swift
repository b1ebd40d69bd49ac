import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The reports' dimensions (resource, client family, single sign-on, home-based, reason) and their
/// `uniqueAccounts`, over the real service (SQLite, and PostgreSQL under scripts/with-postgres.sh): a denial of the
/// demo world reported by resource and by reason, client families told apart, two users over three sign-ins counted
/// as two accounts, and the figures and accounts of two instances adding up in the same rows.
@Suite struct ReportDimensionTests {
    /// A read-only operator's bearer token.
    static func viewer(_ local: LocalService) async throws -> String {
        let session = try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly)
        return try #require(session.object["token"] as? String)
    }

    /// The rows of the report at `path` (`granularity=total` over the hour around now).
    static func rows(_ local: LocalService, _ token: String, _ path: String) async throws -> [[String: Any]] {
        let separator = path.contains("?") ? "&" : "?"
        let answer = try await ReportFlowTests.report(
            local, token: token, path + separator + "granularity=total&" + ReportFlowTests.range(local))
        return try #require(answer["rows"] as? [[String: Any]], "\(answer)")
    }

    /// The row whose `dimension` is `value`.
    static func row(_ rows: [[String: Any]], _ dimension: String, _ value: String) -> [String: Any]? {
        rows.first { $0[dimension] as? String == value }
    }

    static func number(_ row: [String: Any]?, _ name: String) -> Int { ReportFlowTests.number(row, name) }

    @Test func aDenialIsReportedByResourceAndByReason() async throws {
        try await LocalService.run { local in
            // alice plays news and sports and preauthorizes three channels; bob plays news, is denied movies (DemoCable's
            // parental controls) and preauthorizes news and movies; one sign-in is refused.
            try await local.reportBurst()
            let token = try await Self.viewer(local)

            let byResource = try await Self.rows(local, token, "/admin/api/v1/reports/resource")
            #expect(byResource.map { $0["resource"] as? String } == ["", "movies", "news", "sports"], "\(byResource)")
            let movies = Self.row(byResource, "resource", "movies")
            #expect(Self.number(movies, "authzAttempts") == 1 && Self.number(movies, "authzDenials") == 1, "\(byResource)")
            #expect(Self.number(movies, "authzGrants") == 0 && Self.number(movies, "mediaTokens") == 0)
            #expect(Self.number(movies, "preauthGrants") == 1 && Self.number(movies, "preauthDenials") == 1)
            // Accounts of plays (authorize) only: bob's; a preauthorize counts its account once, in the request's row.
            #expect(Self.number(movies, "uniqueAccounts") == 1)
            let news = Self.row(byResource, "resource", "news")
            #expect(Self.number(news, "authzGrants") == 2 && Self.number(news, "mediaTokens") == 2 && Self.number(news, "authzDenials") == 0)
            #expect(Self.number(news, "uniqueAccounts") == 2)
            let sports = Self.row(byResource, "resource", "sports")
            #expect(Self.number(sports, "authzGrants") == 1 && Self.number(sports, "uniqueAccounts") == 1)
            // Sign-ins and preauthorize requests name no resource.
            let none = Self.row(byResource, "resource", "")
            #expect(
                Self.number(none, "authnSuccesses") == 2 && Self.number(none, "preauthorizations") == 2 && Self.number(none, "authzAttempts") == 0)

            let byReason = try await Self.rows(local, token, "/admin/api/v1/reports/reason")
            let denied = Self.row(byReason, "reason", "authorization_denied_by_parental_controls")
            #expect(Self.number(denied, "authzDenials") == 1 && Self.number(denied, "preauthDenials") == 1, "\(byReason)")
            #expect(Self.number(denied, "authzGrants") == 0 && Self.number(denied, "preauthGrants") == 0)
            // Both denials were bob's.
            #expect(Self.number(denied, "uniqueAccounts") == 1)
            let refused = Self.row(byReason, "reason", "invalid_parameter_saml_response")
            #expect(Self.number(refused, "authnFailures") == 1 && Self.number(refused, "authnAttempts") == 0, "\(byReason)")
            #expect(Self.number(Self.row(byReason, "reason", ""), "authzGrants") == 3)

            // Combined with each other and with today's dimensions, and as a filter.
            let combined = try await Self.rows(local, token, "/admin/api/v1/reports/mvpd/resource/reason?resource=movies")
            #expect(
                combined.map { "\($0["mvpd"] ?? "")/\($0["resource"] ?? "")/\($0["reason"] ?? "")" }
                    == ["DemoCable/movies/", "DemoCable/movies/authorization_denied_by_parental_controls"],
                "\(combined)")
            let tv = try await Self.rows(local, token, "/admin/api/v1/reports/platform?reason=authorization_denied_by_parental_controls")
            #expect(tv.map { $0["platform"] as? String } == ["AndroidTV"] && Self.number(tv.first, "authzDenials") == 1, "\(tv)")

            // The demo subscribers signed in at the MVPD's page, not home-based, over REST v2.
            let kinds = try await Self.rows(local, token, "/admin/api/v1/reports/sso/hba/client")
            #expect(
                kinds.map { "\($0["sso"] ?? "")/\($0["hba"] ?? "")/\($0["client"] ?? "")" } == ["none//rest-v2", "none/false/rest-v2"], "\(kinds)")
            #expect(Self.number(Self.row(kinds, "hba", "false"), "uniqueAccounts") == 2)

            // The CSV has the new figure; an unknown dimension is still refused.
            let csv = try await AdminAPITests.call(
                local, .GET, "/admin/api/v1/reports/resource?granularity=total&format=csv&" + ReportFlowTests.range(local), token: token)
            #expect(csv.text.hasPrefix("resource," + ReportDocument.figureNames.joined(separator: ",")) && csv.text.contains("\r\nmovies,"))
            let unknown = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/channel", token: token)
            #expect(unknown.status == 400 && unknown.code == "invalid_dimension")
        }
    }

    @Test func clientFamiliesAreToldApart() async throws {
        try await LocalService.run { local in
            // One REST v2 sign-in; the same device then plays once as a plain REST v2 caller and once as Entitle's SDK.
            var app = try await local.client()
            app.deviceInfo = DeviceInfo(primaryHardwareType: "MobilePhone", model: "Test", osName: "iOS", osVersion: "1")
            guard case .external = try await local.signIn(app, user: "alice").outcome else {
                Issue.record("alice was not signed in")
                return
            }
            let body = try JSONEncoder().encode(DecisionsRequest(resources: ["news"]))
            let plain = try await app.send(.POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body)
            #expect(plain.status == 200, "\(plain.text)")
            let sdk = try await app.send(
                .POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body, headers: [("User-Agent", "Entitle-AccessEnabler/1.0")])
            #expect(sdk.status == 200, "\(sdk.text)")

            // bob on a Roku over REST API v1: a second-screen sign-in and a play.
            let rest = try await local.client(device: "roku-bob")
            let tv = LegacyV1Client(host: local, identity: .bearer(rest), deviceID: "roku-bob")
            let info = DeviceInfo(primaryHardwareType: "SetTopBox", manufacturer: "Roku", osName: "Roku OS").headerValue()
            let created = try await tv.call(.POST, "/reggie/v1/REF/regcode", [("deviceId", "roku-bob"), ("device_info", info)])
            let code = try #require(created.json?["code"] as? String, "\(created.text)")
            guard case .page(let landed) = try await tv.login(code: code, user: "bob"), landed.status == 200 else {
                Issue.record("bob not signed in")
                return
            }
            #expect(try await tv.device(.GET, "/api/v1/mediatoken", [("resource", "sports"), ("device_info", info)]).status == 200)

            let token = try await Self.viewer(local)
            let byClient = try await Self.rows(local, token, "/admin/api/v1/reports/client")
            #expect(byClient.map { $0["client"] as? String } == ["rest-v1", "rest-v2", "sdk"], "\(byClient)")
            let v1 = Self.row(byClient, "client", "rest-v1")
            let v2 = Self.row(byClient, "client", "rest-v2")
            let ae = Self.row(byClient, "client", "sdk")
            #expect(
                Self.number(v1, "authnSuccesses") == 1 && Self.number(v1, "authzGrants") == 1 && Self.number(v1, "mediaTokens") == 1, "\(byClient)")
            #expect(Self.number(v2, "authnSuccesses") == 1 && Self.number(v2, "authzGrants") == 1 && Self.number(v2, "mediaTokens") == 1)
            #expect(Self.number(ae, "authnAttempts") == 0 && Self.number(ae, "authzGrants") == 1 && Self.number(ae, "mediaTokens") == 1)
            #expect(Self.number(v1, "uniqueAccounts") == 1 && Self.number(v2, "uniqueAccounts") == 1 && Self.number(ae, "uniqueAccounts") == 1)
            // By client and resource: bob's play over v1 was sports, alice's plays news.
            let plays = try await Self.rows(local, token, "/admin/api/v1/reports/client/resource?resource=sports")
            #expect(plays.map { $0["client"] as? String } == ["rest-v1"], "\(plays)")
        }
    }

    @Test func twoUsersOverThreeSignInsAreTwoAccounts() async throws {
        try await LocalService.run { local in
            // alice signs in on two devices a few minutes apart, bob once in between; each plays once.
            for (user, minutes) in [("alice", 0.0), ("bob", 3.0), ("alice", 3.0)] {
                local.clock.advance(by: minutes * 60)
                var client = try await local.client()
                guard case .external = try await local.signIn(client, user: user).outcome else {
                    Issue.record("\(user) was not signed in")
                    return
                }
                client.deviceInfo.osName = "iOS"
                let play = try await client.decisions("authorize", mvpd: "DemoCable", resources: ["news"])
                #expect(play.status == 200, "\(play.text)")
            }
            let token = try await Self.viewer(local)
            let totals = try await Self.rows(local, token, "/admin/api/v1/reports")
            // Distinct over the minutes the total sums up: each sign-in's minute has one account, their sum would say 3.
            #expect(Self.number(totals.first, "authnSuccesses") == 3 && Self.number(totals.first, "uniqueAccounts") == 2, "\(totals)")
            let minutes = try await ReportFlowTests.report(
                local, token: token, "/admin/api/v1/reports/resource?granularity=minute&resource=news&" + ReportFlowTests.range(local))
            let perMinute = try #require(minutes["rows"] as? [[String: Any]])
            #expect(perMinute.map { Self.number($0, "uniqueAccounts") } == [1, 1, 1], "\(minutes)")
        }
    }

    @Test func figuresAndAccountsOfTwoInstancesAddUp() async throws {
        try await LocalService.runTwoInstances { first, second in
            let now = first.clock.nowMilliseconds()
            let key = ReportKey(
                requestor: "REF", mvpd: "DemoCable", platform: "iOS", app: "", resource: "news", client: "sdk", sso: "none", hba: "false",
                reason: "authorization_denied_by_mvpd")
            let (alice, bob, carol) = (
                ReportAccount.id(mvpd: "DemoCable", userID: "alice"), ReportAccount.id(mvpd: "DemoCable", userID: "bob"),
                ReportAccount.id(mvpd: "DemoCable", userID: "carol")
            )
            first.service.metrics.reports.count(key, at: now) { counts in
                counts.authzAttempts += 2
                counts.authzDenials += 2
                counts.accounts.formUnion([alice, bob])
            }
            second.service.metrics.reports.count(key, at: now) { counts in
                counts.authzAttempts += 3
                counts.authzDenials += 3
                counts.accounts.formUnion([bob, carol])
            }
            try await first.service.reports.flush()
            try await second.service.reports.flush()
            // The same row, again from the first instance: the accounts are a set (alice again changes nothing).
            first.service.metrics.reports.count(key, at: now) { counts in
                counts.authzAttempts += 1
                counts.accounts.insert(alice)
            }
            let query = ReportQuery(start: now - 60_000, end: now + 60_000, granularity: .minute, dimensions: [.resource, .reason])
            let rows = try await first.service.reports.report(query)
            #expect(rows.count == 1, "\(rows)")
            #expect(rows.first?.dimensions[.resource] == "news" && rows.first?.dimensions[.reason] == "authorization_denied_by_mvpd")
            #expect(rows.first?.counts.authzAttempts == 6 && rows.first?.counts.authzDenials == 5)
            #expect(rows.first?.counts.uniqueAccounts == 3)
            // Read from the other instance's side, with the restriction hook of scoped operators.
            var restricted = query
            restricted.restrictions = [.requestor: ["REF"], .mvpd: ["DemoCable", "DemoFiber"]]
            #expect(try await second.service.repository.reportStore.report(restricted).first?.counts.uniqueAccounts == 3)
            restricted.restrictions = [.mvpd: ["DemoFiber"]]
            #expect(try await second.service.repository.reportStore.report(restricted).isEmpty)
            restricted.restrictions = [.requestor: []]
            #expect(try await second.service.repository.reportStore.report(restricted).isEmpty)

            // Retention purges the accounts with the figures.
            var repository = first.service.repository
            repository.reportRetention = 86_400_000
            try await repository.purgeExpired(now: now + 2 * 86_400_000)
            #expect(try await repository.reportStore.report(query).isEmpty)
            let accounts = try await repository.reportStore.sql.raw("SELECT COUNT(*) AS n FROM report_accounts").first(
                decodingColumn: "n", as: Int64.self)
            #expect(accounts == 0)
        }
    }

    @Test func aFloodOfUnknownResourcesIsBounded() {
        let labels = ReportLabels.resources(limit: 3)
        let now: Int64 = 1_800_000_000_000
        let named = (0..<10).map { labels.value(requestor: "REF", "channel-\($0)", at: now) }
        #expect(named == ["channel-0", "channel-1", "channel-2"] + Array(repeating: "other", count: 7))
        #expect(labels.value(requestor: "REF", "channel-1", at: now) == "channel-1")
        #expect(labels.value(requestor: "OTHER", "channel-9", at: now) == "channel-9")
        #expect(labels.value(requestor: "REF", String(repeating: "x", count: 200), at: now) == "other")
        // The next hour admits names afresh; MRSS is named by its channel title.
        #expect(labels.value(requestor: "REF", "channel-9", at: now + 3_600_000) == "channel-9")
        let mrss = "<rss version=\"2.0\"><channel><title>Sports</title></channel></rss>"
        #expect(ReportLabels.resourceName(mrss) == "Sports")
    }
}
