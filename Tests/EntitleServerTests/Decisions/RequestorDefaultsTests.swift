import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// A requestor's defaults for its integrations (`entitle admin requestor add|update --default-profile-ttl
/// --default-authz-ttl --default-preflight-max-resources`, the admin API's `defaultProfileTTLSeconds`, …): each applies
/// where the integration sets none, and yields to the integration's own setting. Over real sockets on the real
/// storage; SQLite here, PostgreSQL under `scripts/with-postgres.sh`.
@Suite struct RequestorDefaultsTests {
    /// REF's stored record with `change` applied, saved through the recorded service operation.
    static func updateREF(_ local: LocalService, _ change: (inout RequestorRecord) -> Void) async throws {
        var record = try #require(try await local.service.repository.catalogAdminStore.requestorForAdmin(id: "REF"))
        change(&record)
        try await local.service.requestors.update(record, actor: "test")
    }

    @Test func theRequestorsProfileLifetimeAppliesWhereTheIntegrationSetsNone() async throws {
        try await LocalService.run { local in
            try await Self.updateREF(local) { $0.defaultProfileTtlSeconds = 120 }
            let tv = try await local.client()
            _ = try await local.signIn(tv, mvpd: "DemoCable", user: "alice")
            local.clock.advance(by: 100)
            #expect(try await IntegrationProfileTTLTests.signedIn(tv) == ["DemoCable"])
            local.clock.advance(by: 21)
            #expect(try await IntegrationProfileTTLTests.signedIn(tv) == [], "the requestor's 120 s, not the MVPD's 30 days")

            // The integration's own lifetime wins over the requestor's default.
            try await local.service.integrations.setSettings(
                requestor: "REF", mvpd: "DemoCable", displayName: nil, logoURL: nil, profileTTLSeconds: 600, actor: "test")
            _ = try await local.signIn(tv, mvpd: "DemoCable", user: "alice")
            local.clock.advance(by: 121)
            #expect(try await IntegrationProfileTTLTests.signedIn(tv) == ["DemoCable"], "the integration's 600 s")

            // The change is in the changes log with the values before and after.
            let changes = try await local.service.repository.changeLogStore.changes(since: 0)
            let update = try #require(changes.last { $0.action == "requestor.update" })
            #expect(update.valueAfter?.contains("\"defaultProfileTTLSeconds\":120") == true, "\(update.valueAfter ?? "")")
            #expect(update.valueBefore?.contains("defaultProfileTTLSeconds") == false, "\(update.valueBefore ?? "")")
        }
    }

    @Test func theRequestorsAuthorizationTTLSitsBetweenTheIntegrationsAndTheMVPDs() async throws {
        try await LocalService.run { local in
            let repository = local.service.repository
            try await repository.catalogStore.setAuthorizationTTL(AuthorizationTTLRecord(requestorId: "*", mvpdId: "DemoCable", ttlSeconds: 300))
            #expect(try await repository.catalogStore.authorizationTTL(requestor: "REF", mvpd: "DemoCable") == 300)
            try await Self.updateREF(local) { $0.defaultAuthzTtlSeconds = 0 }
            #expect(try await repository.catalogStore.authorizationTTL(requestor: "REF", mvpd: "DemoCable") == 0, "the requestor's, over the MVPD's")
            try await repository.catalogStore.setAuthorizationTTL(AuthorizationTTLRecord(requestorId: "REF", mvpdId: "DemoCable", ttlSeconds: 10))
            #expect(try await repository.catalogStore.authorizationTTL(requestor: "REF", mvpd: "DemoCable") == 10, "the integration's, over both")
            try await Self.updateREF(local) { $0.defaultAuthzTtlSeconds = nil }
            #expect(try await repository.catalogStore.authorizationTTL(requestor: "REF", mvpd: "DemoFiber") == nil)
        }
    }

    @Test func theRequestorsPreflightMaximumAppliesUnlessTheIntegrationTurnsItOff() async throws {
        try await LocalService.run { local in
            let repository = local.service.repository
            #expect(try await repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "DemoFiber") == nil)
            try await Self.updateREF(local) { $0.defaultPreflightMaxResources = 3 }
            #expect(try await repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "DemoFiber") == 3)
            try await repository.mvpdOptionsStore.setPreflight(requestor: "REF", mvpd: "DemoFiber", maxResources: 5)
            #expect(try await repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "DemoFiber") == 5)
            try await repository.mvpdOptionsStore.setPreflight(requestor: "REF", mvpd: "DemoFiber", maxResources: 0)
            #expect(
                try await repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "DemoFiber") == nil, "off, despite the default")
            #expect(try await repository.mvpdOptionsStore.integrationPreflightMaxResources(requestor: "REF", mvpd: "DemoFiber") == 0)
            #expect(
                try await repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "DemoCable") == 3, "other integrations keep it")
        }
    }

    @Test func outOfRangeDefaultsAreRefusedAndNothingChanges() async throws {
        try await LocalService.run { local in
            let before = try #require(try await local.service.repository.catalogAdminStore.requestorForAdmin(id: "REF"))
            let bad: [(String, (inout RequestorRecord) -> Void)] = [
                ("profile lifetime", { $0.defaultProfileTtlSeconds = 59 }),
                ("profile lifetime", { $0.defaultProfileTtlSeconds = 401 * 86_400 }),
                ("authorization TTL", { $0.defaultAuthzTtlSeconds = -1 }),
                ("authorization TTL", { $0.defaultAuthzTtlSeconds = 7 * 86_400 + 1 }),
                ("preflight maximum", { $0.defaultPreflightMaxResources = 0 }),
                ("preflight maximum", { $0.defaultPreflightMaxResources = 1001 }),
            ]
            for (name, change) in bad {
                let error = await #expect(throws: AdminError.self, "\(name)") { try await Self.updateREF(local, change) }
                #expect(error?.code == "invalid_value" && error?.description.contains(name) == true, "\(String(describing: error))")
            }
            #expect(try await local.service.repository.catalogAdminStore.requestorForAdmin(id: "REF") == before)
        }
    }

    @Test func theAdminAPISetsAndShowsTheDefaults() async throws {
        try await LocalService.run { local in
            let session = try await AdminAPITests.operatorSession(local, "ops", role: .readWrite)
            let token = try #require(session.object["token"] as? String)
            let body: [String: Any] = [
                "name": "Reference", "domains": ["ios.app"], "defaultProfileTTLSeconds": 3600, "defaultAuthorizationTTLSeconds": 0,
                "defaultPreflightMaxResources": 4,
            ]
            let put = try await AdminAPITests.call(local, .PUT, "/admin/api/requestors/REF", json: body, token: token)
            #expect(put.status == 200, "\(put.text)")
            #expect(put.object["defaultProfileTTLSeconds"] as? Int == 3600)
            #expect(put.object["defaultAuthorizationTTLSeconds"] as? Int == 0)
            #expect(put.object["defaultPreflightMaxResources"] as? Int == 4)
            var wrong = body
            wrong["defaultPreflightMaxResources"] = 5000
            let refused = try await AdminAPITests.call(local, .PUT, "/admin/api/requestors/REF", json: wrong, token: token)
            #expect(refused.status == 400 && refused.text.contains("invalid_value"), "\(refused.status) \(refused.text)")
            let shown = try await AdminAPITests.call(local, .GET, "/admin/api/requestors/REF", token: token)
            #expect(shown.object["defaultPreflightMaxResources"] as? Int == 4, "the refused change left the requestor as it was")

            // The console's requestor page shows them.
            let (cookie, _) = try await ConsoleTests.signIn(local, "viewer", role: .readOnly)
            let page = try await ConsoleTests.call(local, .GET, "/console/requestors/REF", cookie: cookie)
            #expect(page.text.contains("sign-ins last 3600 s") && page.text.contains("kept 0 s"), "\(page.text)")
            #expect(page.text.contains("in calls of up to 4 resources"))
        }
    }
}
