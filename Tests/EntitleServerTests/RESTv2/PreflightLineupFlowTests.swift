import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Preflight by channel lineup (notes §3, way 2) over real sockets: the DemoMVPD's assertion lists the subscriber's
/// channels in `authorized_resources`; preauthorize answers from that list with no call to the MVPD (counted at the
/// DemoMVPD), authorize still asks the MVPD, a new sign-in replaces the list, logout removes it, and a sign-in without
/// the attribute is answered by the MVPD. SQLite here, PostgreSQL under `scripts/with-postgres.sh`.
@Suite struct PreflightLineupFlowTests {
    typealias API = AdminAPITests

    static func decide(_ tv: RESTClient, _ mvpd: String, _ resources: [String], _ kind: String = "preauthorize") async throws -> [Decision] {
        try await tv.decisions(kind, mvpd: mvpd, resources: resources).decode(DecisionsResponse.self).decisions
    }

    static func mvpdCalls(_ local: LocalService) throws -> Int { try #require(local.host.demo).authorizationRequests.count }

    @Test func preauthorizeAnswersFromTheLineupWithoutCallingTheMVPD() async throws {
        try await LocalService.run(demoLineupProviders: ["DemoCable"]) { local in
            // Seeded as the DemoMVPD sends it; set again through the admin API (recorded).
            let token = try #require(try await API.operatorSession(local, "ops", role: .readWrite).object["token"] as? String)
            let set = try await API.call(
                local, .PUT, "/admin/api/integrations/REF/DemoCable", json: ["preflightMode": "lineup", "lineupAttribute": "authorized_resources"],
                token: token)
            #expect(set.status == 200, "\(set.text)")
            #expect(set.object["preflightMode"] as? String == "lineup" && set.object["lineupAttribute"] as? String == "authorized_resources")
            let shown = try await API.call(local, .GET, "/admin/api/mvpds/DemoCable", token: token)
            #expect(shown.object["preflightLineup"] as? [String: String] == ["REF": "authorized_resources"], "\(shown.text)")

            // Sign-ins last a minute here, so that the device signs in again (as after a real profile's end).
            var shortSignIns = MVPDUpdate()
            shortSignIns.profileTTLSeconds = 60
            try await local.service.mvpds.update(id: "DemoCable", shortSignIns, actor: "test")
            let tv = try await local.client(device: "stb-lineup")
            let alice = try await local.signIn(tv, user: "alice")
            let kept = try #require(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: alice.code))
            #expect(kept.lineup == #"["movies","news","sports"]"#)
            #expect(kept.attributeMap["authorized_resources"] == nil, "the lineup is not user metadata")

            let before = try Self.mvpdCalls(local)
            let mrss = #"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>sports</title></channel></rss>"#
            let answers = try await Self.decide(tv, "DemoCable", ["news", "sports", "movies", "weather", mrss])
            #expect(answers.map(\.authorized) == [true, true, true, false, true], "\(answers)")
            #expect(answers[3].error?.code == .preauthorizationDeniedByMVPD && answers[3].error?.status == 403)
            #expect(answers[3].error?.details?.contains("channel lineup") == true, "\(String(describing: answers[3].error))")
            #expect(answers.allSatisfy { $0.token == nil })
            #expect(try Self.mvpdCalls(local) == before, "preauthorize made no MVPD call")

            // The same over REST API v1 (one state behind every protocol).
            let v1 = LegacyV1Client(host: local, identity: .bearer(tv), deviceID: "stb-lineup")
            let legacy = try await v1.device(.GET, "/api/v1/preauthorize", [("resource", "news,weather")])
            #expect(legacy.status == 200, "\(legacy.text)")
            let items = try #require(legacy.json?["resources"] as? [[String: Any]])
            #expect(items.map { $0["authorized"] as? Bool } == [true, false], "\(items)")
            #expect(try Self.mvpdCalls(local) == before, "v1 preauthorize made no MVPD call")

            // Authorize still asks the MVPD.
            let authorized = try await Self.decide(tv, "DemoCable", ["news"], "authorize")
            #expect(authorized[0].authorized && authorized[0].token != nil)
            #expect(try Self.mvpdCalls(local) == before + 1)

            // A new sign-in on the device (bob: news and sports) replaces the lineup.
            local.clock.advance(by: 61)
            let bob = try await local.signIn(tv, user: "bob")
            #expect(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: alice.code) == nil, "replaced")
            #expect(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: bob.code)?.lineup == #"["news","sports"]"#)
            let calls = try Self.mvpdCalls(local)
            let replaced = try await Self.decide(tv, "DemoCable", ["news", "sports", "movies"])
            #expect(replaced.map(\.authorized) == [true, true, false], "\(replaced)")
            #expect(replaced[2].error?.code == .preauthorizationDeniedByMVPD)
            #expect(try Self.mvpdCalls(local) == calls)

            // Logout removes the profile and its lineup: preauthorize has nothing to answer from.
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoCable")
            #expect(logout.status == 200, "\(logout.text)")
            #expect(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: bob.code) == nil)
            let afterLogout = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news"])
            #expect(afterLogout.status != 200 || (try? afterLogout.decode(DecisionsResponse.self).decisions.first?.authorized) != true)
            #expect(try Self.mvpdCalls(local) == calls)
        }
    }

    @Test func aSignInWithoutTheAttributeIsAnsweredByTheMVPD() async throws {
        try await LocalService.run { local in
            // The demo world: DemoSSO preflights by lineup (dave: news, movies), no MVPD call.
            let sso = try #require(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoSSO").first)
            #expect(sso.preflightMode == "lineup" && sso.lineupAttribute == "authorized_resources")
            let tv = try await local.client()
            _ = try await local.signIn(tv, mvpd: "DemoSSO", user: "dave")
            let before = try Self.mvpdCalls(local)
            #expect(try await Self.decide(tv, "DemoSSO", ["news", "movies", "sports"]).map(\.authorized) == [true, true, false])
            #expect(try Self.mvpdCalls(local) == before)

            // DemoFiber set to lineup, but its assertions carry no lineup: the MVPD is asked, once per resource.
            try await local.service.integrations.setPreflightMode(requestor: "REF", mvpd: "DemoFiber", .lineup, actor: "test")
            let fiber = try await local.client()
            let carol = try await local.signIn(fiber, mvpd: "DemoFiber", user: "carol")
            #expect(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: carol.code)?.lineup == nil)
            let calls = try Self.mvpdCalls(local)
            let answers = try await Self.decide(fiber, "DemoFiber", ["news", "sports"])
            #expect(answers.map(\.authorized) == [true, false], "\(answers)")
            #expect(answers[1].error?.code == .preauthorizationDeniedByMVPD)
            #expect(try Self.mvpdCalls(local) == calls + 2)

            // Turned off: DemoSSO's kept lineup is no longer used; the MVPD answers.
            try await local.service.integrations.setPreflightMode(requestor: "REF", mvpd: "DemoSSO", .mvpd, actor: "test")
            let asked = try Self.mvpdCalls(local)
            #expect(try await Self.decide(tv, "DemoSSO", ["news", "weather"]).map(\.authorized) == [true, false])
            #expect(try Self.mvpdCalls(local) == asked + 2)
        }
    }

    @Test func badPreflightSettingsAreRefusedClearly() async throws {
        try await LocalService.run { local in
            let token = try #require(try await API.operatorSession(local, "ops", role: .readWrite).object["token"] as? String)
            let cases: [(String, [String: Any], Int, String, String)] = [
                ("REF/DemoCable", ["preflightMode": "sometimes"], 400, "invalid_value", "use lineup or mvpd"),
                ("REF/DemoCable", ["lineupAttribute": "authorized_resources"], 400, "invalid_value", "needs preflightMode lineup"),
                ("REF/DemoCable", ["preflightMode": "mvpd", "lineupAttribute": "x"], 400, "invalid_value", "needs preflightMode lineup"),
                ("REF/DemoCable", ["preflightMode": "lineup", "lineupAttribute": "two words"], 400, "invalid_value", "printable ASCII"),
                ("REF/DemoCable", ["preflightMode": "lineup", "lineupAttribute": ""], 400, "invalid_value", "printable ASCII"),
                ("REF/DemoStream", ["preflightMode": "lineup"], 400, "invalid_value", "needs a SAML 2.0 MVPD"),
                ("REF/TempPass", ["preflightMode": "lineup"], 400, "invalid_value", "needs a SAML 2.0 MVPD"),
                ("REF/NoSuchMVPD", ["preflightMode": "lineup"], 404, "unknown_integration", "is not integrated"),
            ]
            for (path, body, status, code, words) in cases {
                let answer = try await API.call(local, .PUT, "/admin/api/integrations/" + path, json: body, token: token)
                #expect(answer.status == status && answer.code == code && answer.text.contains(words), "\(body): \(answer.status) \(answer.text)")
            }
            let unchanged = try #require(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first)
            #expect(unchanged.preflightMode == "mvpd" && unchanged.lineupAttribute == nil)
            let newMVPD = try await API.call(
                local, .POST, "/admin/api/mvpds", json: ["id": "X", "name": "X", "samlMetadata": "<x/>", "preflightMode": "lineup"], token: token)
            #expect(newMVPD.status == 400 && newMVPD.text.contains("give requestors"), "\(newMVPD.text)")
            // A custom attribute name, recorded in the changes log.
            let custom = try await API.call(
                local, .PUT, "/admin/api/integrations/REF/DemoCable", json: ["preflightMode": "lineup", "lineupAttribute": "urn:example:lineup"],
                token: token)
            #expect(custom.status == 200 && custom.object["lineupAttribute"] as? String == "urn:example:lineup", "\(custom.text)")
            let changes = try await API.call(local, .GET, "/admin/api/changes", token: token)
            #expect(changes.text.contains("urn:example:lineup"))
        }
    }

    @Test func theConsoleShowsAndSetsPreflightByLineup() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await ConsoleTests.signIn(local, "ops", role: .readWrite)
            let page = try await ConsoleTests.call(local, .GET, "/console/mvpds/DemoSSO", cookie: cookie)
            #expect(page.text.contains("REF: by channel lineup, attribute <code>authorized_resources</code>"), "\(page.text)")
            let set = try await ConsoleTests.call(
                local, .POST, "/console/mvpds/DemoCable/preflight",
                form: ["csrf": csrf, "description": "lineup trial", "requestor": "REF", "preflightMode": "lineup", "lineupAttribute": "lineup"],
                cookie: cookie)
            #expect(set.status == 303)
            let view = try #require(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first)
            #expect(view.preflightMode == "lineup" && view.lineupAttribute == "lineup")
            #expect(try await local.service.repository.changeLogStore.changes(since: 0).last?.description == "lineup trial")
            let before = try await local.service.repository.changeLogStore.changes(since: 0).count
            for (fields, expected) in [
                (["requestor": "REF", "preflightMode": "never"], "Unknown preflight mode"),
                (["requestor": "REF", "preflightMode": "lineup", "lineupAttribute": "a b"], "printable ASCII"),
                (["requestor": "NOPE", "preflightMode": "lineup"], "is not integrated"),
            ] {
                var form = fields
                (form["csrf"], form["description"]) = (csrf, "test")
                let answer = try await ConsoleTests.call(local, .POST, "/console/mvpds/DemoCable/preflight", form: form, cookie: cookie)
                let text = answer.flash
                #expect(answer.status == 303 && text.hasPrefix("e") && text.contains(expected), "\(fields): \(text)")
            }
            #expect(try await local.service.repository.changeLogStore.changes(since: 0).count == before, "no refused change is logged")
        }
    }
}
