import ChildProcess
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Scoped operators: a programmer's team limited to its requestor and an MVPD partner limited to its MVPD
/// each see and change exactly what is theirs, through the admin API, the console and the CLI; every refusal is a 403
/// `out_of_scope`; an unscoped operator keeps its reach. On SQLite, and on PostgreSQL when `ENTITLE_TEST_DATABASE_URL`
/// is set.
@Suite struct ScopedOperatorTests {
    static let password = AdminAPITests.password

    /// A second requestor (OTHER, integrated with DemoCable) beside the demo world's REF, made by an unscoped operator;
    /// then a team limited to REF, a read-only partner and a read-write partner limited to DemoFiber. Returns the
    /// unscoped operator's token.
    static func world(_ local: LocalService) async throws -> String {
        let root = try #require(try await AdminAPITests.operatorSession(local, "root", role: .readWrite).object["token"] as? String)
        let other = try await AdminAPITests.call(local, .POST, "/admin/api/requestors", json: ["id": "OTHER", "name": "Other Network"], token: root)
        #expect(other.status == 201, "\(other.text)")
        let integrated = try await AdminAPITests.call(local, .PUT, "/admin/api/integrations/OTHER/DemoCable", json: ["enabled": true], token: root)
        #expect(integrated.status == 200, "\(integrated.text)")
        for (name, role, requestors, mvpds) in [
            ("team", "read-write", ["REF"], [String]()), ("partner", "read-only", [], ["DemoFiber"]), ("partnerrw", "read-write", [], ["DemoFiber"]),
        ] {
            let added = try await AdminAPITests.call(
                local, .POST, "/admin/api/operators",
                json: ["username": name, "role": role, "password": password, "requestors": requestors, "mvpds": mvpds], token: root)
            #expect(added.status == 201, "\(added.text)")
            let scope = added.object["scope"] as? [String: Any]
            #expect(scope?["requestors"] as? [String] == requestors && scope?["mvpds"] as? [String] == mvpds, "\(added.text)")
        }
        return root
    }

    /// Figures of the last minute for REF × DemoFiber and OTHER × DemoCable, as the instances' flushes write them.
    static func seedFigures(_ local: LocalService) async throws {
        let minute = local.service.clock.nowMilliseconds() / 60_000 * 60_000 - 60_000
        var counts = ReportCounts()
        counts.authzAttempts = 1
        try await local.service.repository.reportStore.addReportCounts([
            (ReportMinute(start: minute, key: ReportKey(requestor: "REF", mvpd: "DemoFiber", platform: "iOS", app: "a")), counts),
            (ReportMinute(start: minute, key: ReportKey(requestor: "OTHER", mvpd: "DemoCable", platform: "iOS", app: "a")), counts),
        ])
    }

    /// The values of `dimension` in a report's rows.
    static func reported(_ answer: AdminAPITests.Answer, _ dimension: String) -> Set<String> {
        Set((answer.object["rows"] as? [[String: Any]] ?? []).compactMap { $0[dimension] as? String })
    }

    /// Signs `username` in to the admin API; returns its bearer token.
    static func token(_ local: LocalService, _ username: String) async throws -> String {
        let answer = try await AdminAPITests.call(local, .POST, "/admin/api/session", json: ["username": username, "password": password])
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer.object["token"] as? String)
    }

    /// Expects a 403 `out_of_scope`.
    static func expectOutOfScope(_ answer: AdminAPITests.Answer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 403 && answer.code == "out_of_scope", "\(answer.status) \(answer.text)", sourceLocation: sourceLocation)
    }

    static func ids(_ answer: AdminAPITests.Answer, _ key: String = "id") -> [String] {
        (answer.json as? [[String: Any]] ?? []).compactMap { $0[key] as? String }
    }

    @Test func aRequestorScopedTeamSeesAndChangesOnlyItsRequestorThroughTheAdminAPI() async throws {
        try await LocalService.run { local in
            let root = try await Self.world(local)
            let team = try await Self.token(local, "team")
            let session = try await AdminAPITests.call(local, .GET, "/admin/api/session", token: team)
            #expect((session.object["scope"] as? [String: Any])?["requestors"] as? [String] == ["REF"], "\(session.text)")

            // What it sees: its requestor, its integrations, the MVPDs integrated with it (their other integrations hidden).
            #expect(Self.ids(try await AdminAPITests.call(local, .GET, "/admin/api/requestors", token: team)) == ["REF"])
            Self.expectOutOfScope(try await AdminAPITests.call(local, .GET, "/admin/api/requestors/OTHER", token: team))
            let integrations = try await AdminAPITests.call(local, .GET, "/admin/api/integrations", token: team)
            #expect(Set(Self.ids(integrations, "requestor")) == ["REF"], "\(integrations.text)")
            let mvpds = try await AdminAPITests.call(local, .GET, "/admin/api/mvpds", token: team)
            #expect(Self.ids(mvpds).contains("DemoCable"), "\(mvpds.text)")
            let cable = try await AdminAPITests.call(local, .GET, "/admin/api/mvpds/DemoCable", token: team)
            let cableIntegrations = (cable.object["integrations"] as? [[String: Any]] ?? []).compactMap { $0["requestor"] as? String }
            #expect(cableIntegrations == ["REF"], "OTHER's integration is not the team's: \(cable.text)")

            // What it changes: its requestor's integrations and apps; not another requestor's, nor an MVPD's own settings.
            let renamed = try await AdminAPITests.call(
                local, .PUT, "/admin/api/integrations/REF/DemoCable", json: ["displayName": "Cable (REF)"], token: team)
            #expect(renamed.status == 200, "\(renamed.text)")
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .PUT, "/admin/api/integrations/OTHER/DemoCable", json: ["enabled": false], token: team))
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .PUT, "/admin/api/requestors/OTHER", json: ["name": "Taken"], token: team))
            Self.expectOutOfScope(try await AdminAPITests.call(local, .POST, "/admin/api/requestors/OTHER/disable", token: team))
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .PATCH, "/admin/api/mvpds/DemoCable", json: ["displayName": "Mine"], token: team))
            let statement: [String: Any] = ["requestor": "REF", "name": "Team App", "redirectURIs": ["https://team.example/cb"]]
            let issued = try await AdminAPITests.call(local, .POST, "/admin/api/software-statements", json: statement, token: team)
            #expect(issued.status == 201, "\(issued.text)")
            Self.expectOutOfScope(
                try await AdminAPITests.call(
                    local, .POST, "/admin/api/software-statements", json: statement.merging(["requestor": "OTHER"]) { $1 }, token: team))

            // Service-wide things are refused, and it can neither widen its scope nor make an unscoped operator.
            Self.expectOutOfScope(try await AdminAPITests.call(local, .GET, "/admin/api/keys", token: team))
            Self.expectOutOfScope(try await AdminAPITests.call(local, .POST, "/admin/api/cache/flush", token: team))
            Self.expectOutOfScope(try await AdminAPITests.call(local, .GET, "/admin/api/operators", token: team))
            Self.expectOutOfScope(
                try await AdminAPITests.call(
                    local, .POST, "/admin/api/operators", json: ["username": "mine", "role": "read-write", "password": Self.password], token: team))
            Self.expectOutOfScope(
                try await AdminAPITests.call(
                    local, .PUT, "/admin/api/operators/team/scope", json: ["requestors": ["REF", "OTHER"]], token: team))

            // Reports and the changes log are filtered to its requestor.
            try await Self.seedFigures(local)
            let report = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/requestor?granularity=total", token: team)
            #expect(report.status == 200 && Self.reported(report, "requestor") == ["REF"], "\(report.text)")
            let all = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/requestor?granularity=total", token: root)
            #expect(Self.reported(all, "requestor") == ["REF", "OTHER"], "unscoped: every requestor's figures: \(all.text)")
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/requestor?granularity=total&requestor=OTHER", token: team))
            let changes = try await AdminAPITests.call(local, .GET, "/admin/api/changes", token: team)
            let targets = Self.ids(changes, "target")
            #expect(targets.contains("REF/DemoCable") && !targets.contains { $0.hasPrefix("OTHER") }, "\(changes.text)")

            // The unscoped operator is unchanged: it sees both requestors and the team's scope, and changes the scope.
            #expect(Set(Self.ids(try await AdminAPITests.call(local, .GET, "/admin/api/requestors", token: root))) == ["REF", "OTHER"])
            let operators = try await AdminAPITests.call(local, .GET, "/admin/api/operators", token: root)
            let teamView = (operators.json as? [[String: Any]] ?? []).first { $0["username"] as? String == "team" }
            #expect((teamView?["scope"] as? [String: Any])?["requestors"] as? [String] == ["REF"], "\(operators.text)")
            let widened = try await AdminAPITests.call(
                local, .PUT, "/admin/api/operators/team/scope", json: ["requestors": ["REF", "OTHER"]], token: root)
            #expect(widened.status == 200, "\(widened.text)")
            #expect(Set(Self.ids(try await AdminAPITests.call(local, .GET, "/admin/api/requestors", token: team))) == ["REF", "OTHER"])
            let logged = try await AdminAPITests.call(local, .GET, "/admin/api/changes", token: root)
            let entry = (logged.json as? [[String: Any]] ?? []).last { $0["action"] as? String == "operator.scope" }
            #expect(entry?["target"] as? String == "team", "\(logged.text)")
        }
    }

    @Test func anMVPDPartnerSeesItsMVPDAndChangesItOnlyWithTheReadWriteRole() async throws {
        try await LocalService.run { local in
            _ = try await Self.world(local)
            let partner = try await Self.token(local, "partner")
            #expect(Self.ids(try await AdminAPITests.call(local, .GET, "/admin/api/mvpds", token: partner)) == ["DemoFiber"])
            #expect(Self.ids(try await AdminAPITests.call(local, .GET, "/admin/api/requestors", token: partner)).isEmpty)
            let integrations = try await AdminAPITests.call(local, .GET, "/admin/api/integrations", token: partner)
            #expect(Set(Self.ids(integrations, "mvpd")) == ["DemoFiber"], "\(integrations.text)")
            Self.expectOutOfScope(try await AdminAPITests.call(local, .GET, "/admin/api/mvpds/DemoCable", token: partner))
            Self.expectOutOfScope(try await AdminAPITests.call(local, .GET, "/admin/api/requestors/REF", token: partner))
            try await Self.seedFigures(local)
            let report = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/mvpd?granularity=total&mvpd=DemoFiber", token: partner)
            #expect(report.status == 200 && Self.reported(report, "mvpd") == ["DemoFiber"], "\(report.text)")
            let unfiltered = try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/requestor/mvpd?granularity=total", token: partner)
            #expect(Self.reported(unfiltered, "mvpd") == ["DemoFiber"], "only its MVPD's figures: \(unfiltered.text)")
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .GET, "/admin/api/v1/reports/mvpd?granularity=total&mvpd=DemoCable", token: partner))
            let readOnly = try await AdminAPITests.call(local, .PATCH, "/admin/api/mvpds/DemoFiber", json: ["displayName": "Fiber"], token: partner)
            #expect(readOnly.status == 403, "\(readOnly.text)")

            let writer = try await Self.token(local, "partnerrw")
            let renamed = try await AdminAPITests.call(
                local, .PATCH, "/admin/api/mvpds/DemoFiber", json: ["displayName": "Demo Fiber Plus"], token: writer)
            #expect(renamed.status == 200 && renamed.object["name"] as? String == "Demo Fiber Plus", "\(renamed.text)")
            let integration = try await AdminAPITests.call(
                local, .PUT, "/admin/api/integrations/REF/DemoFiber", json: ["displayName": "Fiber for REF"], token: writer)
            #expect(integration.status == 200, "\(integration.text)")
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .PATCH, "/admin/api/mvpds/DemoCable", json: ["displayName": "Taken"], token: writer))
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .PUT, "/admin/api/integrations/REF/DemoCable", json: ["enabled": false], token: writer))
            Self.expectOutOfScope(try await AdminAPITests.call(local, .DELETE, "/admin/api/mvpds/DemoFiber", token: writer))
            Self.expectOutOfScope(
                try await AdminAPITests.call(local, .POST, "/admin/api/requestors", json: ["id": "NEW", "name": "New"], token: writer))
            let changes = try await AdminAPITests.call(local, .GET, "/admin/api/changes", token: writer)
            let targets = Self.ids(changes, "target")
            #expect(targets.contains("DemoFiber") && targets.allSatisfy { $0.split(separator: "/").contains("DemoFiber") }, "\(changes.text)")
        }
    }

    /// Signs an existing account in to the console; returns its cookie and CSRF token.
    static func consoleSignIn(_ local: LocalService, _ username: String) async throws -> (cookie: String, csrf: String) {
        let form = try await ConsoleTests.call(local, .GET, "/console/sign-in")
        let login = try #require(form.cookies[ConsoleSignInController.loginCookieName])
        let answer = try await ConsoleTests.call(
            local, .POST, "/console/sign-in", form: ["login": try #require(form.field("login")), "username": username, "password": password],
            cookie: "\(ConsoleSignInController.loginCookieName)=\(login)")
        #expect(answer.status == 303, "\(answer.status) \(answer.text)")
        let cookie = "entitle_admin=" + (try #require(answer.cookies["entitle_admin"]))
        let page = try await ConsoleTests.call(local, .GET, "/console/requestors", cookie: cookie)
        return (cookie, try #require(page.field("csrf")))
    }

    @Test func theConsoleShowsAScopedOperatorOnlyWhatItMaySeeAndDo() async throws {
        try await LocalService.run { local in
            _ = try await Self.world(local)
            let (team, csrf) = try await Self.consoleSignIn(local, "team")
            let requestors = try await ConsoleTests.call(local, .GET, "/console/requestors", cookie: team)
            #expect(requestors.text.contains("/console/requestors/REF") && !requestors.text.contains("/console/requestors/OTHER"))
            #expect(!requestors.text.contains("href=\"/console/keys\"") && !requestors.text.contains("href=\"/console/operators\""))
            #expect(requestors.text.contains("requestor:REF"), "the page says what the operator is limited to")
            let own = try await ConsoleTests.call(local, .GET, "/console/requestors/REF", cookie: team)
            #expect(own.status == 200 && own.text.contains("action=\"/console/requestors/REF/statements\""), "\(own.text)")
            let foreign = try await ConsoleTests.call(local, .GET, "/console/requestors/OTHER", cookie: team)
            #expect(foreign.status == 403 && foreign.text.contains("outside its scope"), "\(foreign.status) \(foreign.text)")
            #expect(try await ConsoleTests.call(local, .GET, "/console/keys", cookie: team).status == 403)
            #expect(try await ConsoleTests.call(local, .GET, "/console/operators", cookie: team).status == 403)
            let cable = try await ConsoleTests.call(local, .GET, "/console/mvpds/DemoCable", cookie: team)
            #expect(cable.status == 200 && !cable.text.contains("id=\"edit-mvpd\""), "an MVPD's own settings are not the team's")
            let refused = try await ConsoleTests.call(
                local, .POST, "/console/requestors/OTHER/integrations/DemoCable",
                form: ["csrf": csrf, "enabled": "false", "description": "try another requestor"], cookie: team)
            #expect(refused.status == 403 && refused.text.contains("outside its scope"), "\(refused.status) \(refused.text)")
            let allowed = try await ConsoleTests.call(
                local, .POST, "/console/requestors/REF/integrations/DemoFiber",
                form: ["csrf": csrf, "enabled": "false", "description": "the team's own integration"], cookie: team)
            #expect(allowed.status == 303, "\(allowed.status) \(allowed.text)")

            let (partner, _) = try await Self.consoleSignIn(local, "partnerrw")
            let fiber = try await ConsoleTests.call(local, .GET, "/console/mvpds/DemoFiber", cookie: partner)
            #expect(fiber.status == 200 && fiber.text.contains("id=\"edit-mvpd\"") && !fiber.text.contains("id=\"remove-mvpd\""), "\(fiber.text)")
            let mvpds = try await ConsoleTests.call(local, .GET, "/console/mvpds", cookie: partner)
            #expect(mvpds.text.contains("/console/mvpds/DemoFiber") && !mvpds.text.contains("/console/mvpds/DemoCable"))
            #expect(!mvpds.text.contains("id=\"add-mvpd\""), "adding an MVPD is not a partner's")
            #expect(try await ConsoleTests.call(local, .GET, "/console/mvpds/DemoCable", cookie: partner).status == 403)

            let (root, _) = try await Self.consoleSignIn(local, "root")
            let unscoped = try await ConsoleTests.call(local, .GET, "/console/mvpds/DemoCable", cookie: root)
            #expect(unscoped.text.contains("id=\"remove-mvpd\"") && unscoped.text.contains("href=\"/console/keys\""), "unscoped: as before")
        }
    }

    /// The `entitle` binary (``EntitleBinary``).
    static func binary() throws -> String { try EntitleBinary.path() }

    /// Runs `entitle admin …` on the service's storage.
    static func admin(_ local: LocalService, _ arguments: [String]) throws -> ChildProcess.Result {
        var storage = ["--data-dir", local.dataDirectory]
        if let url = local.host.configuration.databaseURL { storage += ["--database-url", url] }
        return try ChildProcess.run(try binary(), ["admin"] + arguments + storage)
    }

    @Test func theCLIAsAScopedOperatorObeysTheSameRules() async throws {
        try await LocalService.run { local in
            _ = try await Self.world(local)
            let scoped = try Self.admin(local, ["operator", "scope", "--username", "partner", "--mvpd", "DemoFiber", "--requestor", "REF"])
            #expect(scoped.status == 0 && scoped.output.contains("requestor:REF mvpd:DemoFiber"), "\(scoped.output)")
            let list = try Self.admin(local, ["operator", "list"])
            #expect(list.output.split(separator: "\n").contains { $0.hasPrefix("team\t") && $0.hasSuffix("requestor:REF") }, "\(list.output)")
            #expect(list.output.split(separator: "\n").contains { $0.hasPrefix("root\t") && $0.hasSuffix("\tall") }, "\(list.output)")

            let requestors = try Self.admin(local, ["requestor", "list", "--as-operator", "team"])
            #expect(requestors.status == 0 && requestors.output.contains("REF\t") && !requestors.output.contains("OTHER"), "\(requestors.output)")
            let foreign = try Self.admin(local, ["requestor", "disable", "--id", "OTHER", "--as-operator", "team"])
            #expect(foreign.status == 1 && foreign.output.contains("outside its scope"), "\(foreign.output)")
            let flush = try Self.admin(local, ["cache", "flush", "--as-operator", "team"])
            #expect(flush.status == 1 && flush.output.contains("outside its scope"), "\(flush.output)")
            let widen = try Self.admin(local, ["operator", "scope", "--username", "team", "--unscoped", "--as-operator", "team"])
            #expect(widen.status == 1 && widen.output.contains("outside its scope"), "\(widen.output)")
            let own = try Self.admin(local, ["integration", "disable", "--requestor", "REF", "--mvpd", "DemoFiber", "--as-operator", "team"])
            #expect(own.status == 0, "\(own.output)")
            let readOnly = try Self.admin(local, ["integration", "enable", "--requestor", "REF", "--mvpd", "DemoFiber", "--as-operator", "partner"])
            #expect(readOnly.status == 1 && readOnly.output.contains("read-only"), "\(readOnly.output)")
            let changes = try Self.admin(local, ["changes", "list", "--as-operator", "team"])
            #expect(changes.output.contains("operator:team\tintegration.disable\tREF/DemoFiber"), "\(changes.output)")
            #expect(!changes.output.contains("\tOTHER"), "\(changes.output)")
            let unscoped = try Self.admin(local, ["requestor", "list"])
            #expect(unscoped.output.contains("OTHER\t"), "the CLI without --as-operator reaches everything: \(unscoped.output)")
        }
    }
}
