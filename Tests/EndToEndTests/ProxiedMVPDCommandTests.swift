import EntitleClients
import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// `entitle admin` on proxied MVPDs, as processes on the service's storage: a proxy's web-service statement without a
/// requestor; `mvpd update`, `mvpd disable` and `integration disable` on proxied MVPDs, kept across the proxy's pushes;
/// `mvpd show` with what was pushed and what the operator changed; the proxy's own settings and a removal refused.
@Suite struct ProxiedMVPDCommandTests {
    static let path = "/control/v3/mvpd-proxies/SmallProxy/mvpds"

    static func admin(_ local: LocalService, _ arguments: [String]) async throws -> DeviceProcess.Result {
        try await PreflightLineupCommandTests.admin(local, arguments)
    }

    static func pickers(_ local: LocalService, _ requestor: String) async throws -> [String: String] {
        Dictionary(
            try await local.service.repository.catalogStore.mvpds(requestor: requestor).map { ($0.id, $0.displayName) },
            uniquingKeysWith: { a, _ in a })
    }

    @Test func operatorsChangeProxiedMVPDsFromTheCommandLineAndThePushesKeepTheirChanges() async throws {
        try await LocalService.run { local in
            let service = local.service
            try await TestProxyMVPD.add(to: service)
            try await service.requestors.save(id: "NET2", name: "Second Network", domains: ["net2.example"], metadataCertificatePEM: nil)

            // Neither --requestor nor --proxy-mvpd: refused. --proxy-mvpd alone: a statement of no requestor.
            let neither = try await Self.admin(local, ["software-statement", "create", "--name", "Push"])
            #expect(neither.status != 0 && neither.stderr.contains("Give --requestor"), "\(neither.stderr)")
            let created = try await Self.admin(local, ["software-statement", "create", "--name", "Push", "--proxy-mvpd", "SmallProxy"])
            #expect(created.status == 0, "\(created.stderr)")
            var pusher = RESTClient(transport: local.transport, baseURL: local.baseURL, serviceProvider: "REF", deviceID: "proxy-backend")
            _ = try await pusher.registerAndAuthorize(softwareStatement: created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let proxied = """
                <proxiedMvpds>
                  <proxiedMvpd><id>ValleyCable</id><displayName>Valley Cable</displayName><logoURL/></proxiedMvpd>
                  <proxiedMvpd><id>HillsFiber</id><displayName>Hills Fiber</displayName><logoURL/>
                    <requestorIds><requestorId>NET2</requestorId></requestorIds></proxiedMvpd>
                </proxiedMvpds>
                """
            let pushed = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", proxied)])
            #expect(pushed.status == 201, "\(pushed.text)")
            #expect(try await pusher.send(.GET, "/api/v2/REF/configuration").status == 401, "the token is no app's")

            // Listed like other MVPDs; changed by the operator.
            let list = try await Self.admin(local, ["mvpd", "list"])
            #expect(list.stdout.contains("ValleyCable\tsaml\tValley Cable\tValleyCable\tproxied by SmallProxy"), "\(list.stdout)")
            let renamed = try await Self.admin(
                local, ["mvpd", "update", "--id", "ValleyCable", "--name", "Valley TV", "--logo-url", "https://ops.example/v.png"])
            #expect(renamed.status == 0, "\(renamed.stderr)")
            let enabled = try await Self.admin(local, ["integration", "enable", "--requestor", "NET2", "--mvpd", "ValleyCable"])
            #expect(enabled.status == 0, "\(enabled.stderr)")
            let off = try await Self.admin(local, ["integration", "disable", "--requestor", "NET2", "--mvpd", "HillsFiber"])
            #expect(off.status == 0, "\(off.stderr)")
            let proxyOwned = try await Self.admin(local, ["mvpd", "update", "--id", "ValleyCable", "--profile-ttl", "3600"])
            #expect(proxyOwned.status != 0 && proxyOwned.stderr.contains("are its proxy's"), "\(proxyOwned.stderr)")

            // The proxy pushes the same list again, Valley Cable renamed: the operator's changes stay.
            let again = try await pusher.send(
                .POST, Self.path,
                form: [("proxied-mvpds", proxied.replacingOccurrences(of: ">Valley Cable<", with: ">Valley Cable Co<"))])
            #expect(again.status == 201, "\(again.text)")
            #expect(try await Self.pickers(local, "REF")["ValleyCable"] == "Valley TV")
            #expect(try await Self.pickers(local, "NET2") == ["ValleyCable": "Valley TV"], "Hills Fiber stays off for NET2")

            // `mvpd show`: what the proxy pushed, what the operator changed, where each integration comes from.
            let shown = try await Self.admin(local, ["mvpd", "show", "--id", "ValleyCable"])
            let view = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "\(shown.stdout)")
            let pushedRecord = try #require(view["proxied"] as? [String: Any], "\(shown.stdout)")
            #expect(view["name"] as? String == "Valley TV" && view["proxyMVPD"] as? String == "SmallProxy")
            #expect(
                pushedRecord["displayName"] as? String == "Valley Cable Co"
                    && pushedRecord["operatorLogoURL"] as? String == "https://ops.example/v.png")
            let integrations = try #require(view["integrations"] as? [[String: Any]])
            #expect(integrations.contains { $0["requestor"] as? String == "NET2" && $0["pushed"] == nil }, "\(integrations)")
            #expect(integrations.contains { $0["requestor"] as? String == "REF" && $0["pushed"] as? Bool == true }, "\(integrations)")

            // Disabled, it stays disabled across a push; a removal is the proxy's.
            #expect(try await Self.admin(local, ["mvpd", "disable", "--id", "ValleyCable"]).status == 0)
            #expect(try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", proxied)]).status == 201)
            #expect(try await Self.pickers(local, "REF")["ValleyCable"] == nil)
            let removal = try await Self.admin(local, ["mvpd", "remove", "--id", "ValleyCable"])
            #expect(removal.status != 0 && removal.stderr.contains("whose pushes decide"), "\(removal.stderr)")
            #expect(try await service.repository.catalogStore.mvpd(id: "ValleyCable") != nil)

            // Removing the proxy removes its proxied MVPDs.
            #expect(try await Self.admin(local, ["mvpd", "disable", "--id", "SmallProxy"]).status == 0)
            let gone = try await Self.admin(local, ["mvpd", "remove", "--id", "SmallProxy"])
            #expect(gone.status == 0, "\(gone.stderr)")
            #expect(try await service.repository.catalogStore.mvpd(id: "ValleyCable") == nil)
            #expect(try await service.repository.catalogStore.mvpd(id: "HillsFiber") == nil)

            let changes = try await service.repository.changeLogStore.changes(since: 0)
            for (target, action) in [
                ("ValleyCable", "mvpd.update"), ("NET2/HillsFiber", "integration.disable"), ("ValleyCable", "mvpd.disable"),
                ("HillsFiber", "mvpd.remove"),
            ] {
                #expect(changes.contains { $0.target == target && $0.action == action && $0.actor.hasPrefix("cli:") }, "\(target) \(action)")
            }
            #expect(changes.filter { $0.action == "mvpd.proxied.push" && $0.actor.hasPrefix("client:") }.count == 3)
        }
    }
}
