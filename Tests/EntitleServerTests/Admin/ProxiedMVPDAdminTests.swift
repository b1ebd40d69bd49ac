import AsyncHTTPClient
import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// Proxied MVPDs changed by an operator through the admin API and the console: the name and logo an operator gives one
/// and an integration an operator turns off stay across the proxy's pushes; the proxy's own settings are refused; each
/// change names who made it. A proxy's web-service statement needs no requestor, and its token opens the Proxy MVPD Web
/// Service only. The pushed iframe size reaches the adobe-services configuration, and REST v2 marks proxied MVPDs.
@Suite struct ProxiedMVPDAdminTests {
    static let path = "/control/v3/mvpd-proxies/SmallProxy/mvpds"

    static func proxied(valleyName: String = "Valley Cable") -> String {
        """
        <proxiedMvpds>
            <proxiedMvpd><id>ValleyCable</id><displayName>\(valleyName)</displayName><logoURL>https://valley.example/logo.png</logoURL></proxiedMvpd>
            <proxiedMvpd>
                <id ProviderID="urn:hills:fiber">HillsFiber</id><displayName>Hills Fiber</displayName><logoURL/>
                <iframeSize><iframeHeight>400</iframeHeight><iframeWidth>340</iframeWidth></iframeSize>
                <requestorIds><requestorId>REF</requestorId></requestorIds>
            </proxiedMvpd>
        </proxiedMvpds>
        """
    }

    /// The `<mvpd>` element of `id` in a configuration XML document.
    static func mvpdElement(_ xml: String, id: String) -> String {
        xml.components(separatedBy: "<mvpd>").first { $0.contains("<id>\(id)</id>") }?.components(separatedBy: "</mvpd>").first ?? ""
    }

    @Test func operatorsChangeProxiedMVPDsThroughTheAdminAPIAndTheConsoleAndPushesKeepTheirChanges() async throws {
        try await LocalService.run { local in
            let service = local.service
            try await TestProxyMVPD.add(to: service)
            let session = try await AdminAPITests.operatorSession(local, "ops", role: .readWrite)
            let token = try #require(session.object["token"] as? String)

            // A web-service statement without a requestor (nor a redirect URI); neither a requestor nor a proxy: 400.
            let neither = try await AdminAPITests.call(local, .POST, "/admin/api/software-statements", json: ["name": "Push"], token: token)
            #expect(neither.status == 400 && neither.code == "invalid_request", "\(neither.text)")
            let issued = try await AdminAPITests.call(
                local, .POST, "/admin/api/software-statements", json: ["name": "Push", "proxyMVPD": "SmallProxy"], token: token)
            #expect(issued.status == 201, "\(issued.text)")
            let jwt = try #require(issued.object["softwareStatement"] as? String, "\(issued.text)")
            var pusher = RESTClient(transport: local.transport, baseURL: local.baseURL, serviceProvider: "REF", deviceID: "proxy-backend")
            _ = try await pusher.registerAndAuthorize(softwareStatement: jwt)
            let pushed = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", Self.proxied())])
            #expect(pushed.status == 201, "\(pushed.text)")
            // Its token is no app's: REST v2 and REST v1 refuse it.
            let asApp = try await pusher.send(.GET, "/api/v2/REF/configuration")
            #expect(asApp.status == 401 && asApp.text.contains("invalid_access_token_service_provider"), "\(asApp.status) \(asApp.text)")
            #expect(try await pusher.send(.GET, "/api/v1/config/REF").status != 200)

            // The pushed iframe size in the adobe-services configuration; Valley Cable's login page is a full page.
            let config = try await AdminAPITests.call(local, .GET, "/adobe-services/config/REF")
            let hills = Self.mvpdElement(config.text, id: "HillsFiber"), valley = Self.mvpdElement(config.text, id: "ValleyCable")
            #expect(hills.contains("<iFrameRequired>true</iFrameRequired>"), "\(config.text)")
            #expect(hills.contains("<iFrameWidth>340</iFrameWidth>") && hills.contains("<iFrameHeight>400</iFrameHeight>"), "\(hills)")
            #expect(valley.contains("<iFrameRequired>false</iFrameRequired>"), "\(valley)")
            // REST v2 marks proxied MVPDs (Adobe's isProxy), not the others.
            let viewer = try await local.client()
            let v2 = try await viewer.send(.GET, "/api/v2/REF/configuration").decode(ConfigurationResponse.self).requestor.mvpds
            #expect(v2.first { $0.id == "HillsFiber" }?.isProxy == true && v2.first { $0.id == "DemoCable" }?.isProxy == false, "\(v2)")

            // The operator renames Valley Cable and turns REF's Hills Fiber off; the proxy's own settings are refused.
            let renamed = try await AdminAPITests.call(
                local, .PATCH, "/admin/api/mvpds/ValleyCable", json: ["displayName": "Valley TV", "logoURL": "https://ops.example/v.png"],
                token: token)
            #expect(renamed.status == 200 && renamed.object["name"] as? String == "Valley TV", "\(renamed.text)")
            let shownProxied = try #require(renamed.object["proxied"] as? [String: Any], "\(renamed.text)")
            #expect(shownProxied["displayName"] as? String == "Valley Cable" && shownProxied["operatorDisplayName"] as? String == "Valley TV")
            let pushedIntegration = (renamed.object["integrations"] as? [[String: Any]])?.first { $0["requestor"] as? String == "REF" }
            #expect(pushedIntegration?["pushed"] as? Bool == true, "\(renamed.text)")
            let proxyOwned = try await AdminAPITests.call(
                local, .PATCH, "/admin/api/mvpds/ValleyCable", json: ["profileTTLSeconds": 3600], token: token)
            #expect(proxyOwned.status == 400 && proxyOwned.code == "proxied_mvpd", "\(proxyOwned.text)")
            let off = try await AdminAPITests.call(
                local, .PUT, "/admin/api/integrations/REF/HillsFiber", json: ["enabled": false], token: token)
            #expect(off.status == 200, "\(off.text)")
            let removal = try await AdminAPITests.call(local, .DELETE, "/admin/api/mvpds/ValleyCable", token: token)
            #expect(removal.status == 409 && removal.code == "proxied_mvpd", "\(removal.text)")

            // The proxy pushes again, with another name for Valley Cable: the operator's name, logo and integration stay;
            // the web service answers what the proxy pushed.
            let again = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", Self.proxied(valleyName: "Valley Cable Co"))])
            #expect(again.status == 201, "\(again.text)")
            var ref = try await service.repository.catalogStore.mvpds(requestor: "REF")
            #expect(ref.first { $0.id == "ValleyCable" }?.displayName == "Valley TV", "\(ref.map(\.displayName))")
            #expect(ref.first { $0.id == "ValleyCable" }?.logoUrl == "https://ops.example/v.png")
            #expect(!ref.contains { $0.id == "HillsFiber" }, "turned off by the operator")
            let listed = try await pusher.send(.GET, Self.path)
            #expect(listed.text.contains("<displayName>Valley Cable Co</displayName>") && !listed.text.contains("Valley TV"), "\(listed.text)")

            // The console's edit form (every field sent back as shown) changes the name; an empty name is the pushed one.
            let (cookie, csrf) = try await ConsoleTests.signIn(local, "console-ops", role: .readWrite)
            let page = try await ConsoleTests.call(local, .GET, "/console/mvpds/ValleyCable", cookie: cookie)
            #expect(page.text.contains("<a href=\"/console/mvpds/SmallProxy\">SmallProxy</a>, whose pushes list it (pushed name: Valley Cable Co)"))
            let view = try await service.mvpds.view(id: "ValleyCable")
            let form: [String: String] = [
                "csrf": csrf, "description": "rebrand", "name": "Valley Console", "logoURL": view.logoURL,
                "profileTTLSeconds": "\(view.profileTTLSeconds)", "authorizationProtocol": view.authorizationProtocol,
                "authorizationURL": view.authorizationURL ?? "", "boardingStatus": "",
            ]
            let saved = try await ConsoleTests.call(local, .POST, "/console/mvpds/ValleyCable", form: form, cookie: cookie)
            #expect(saved.status == 303, "\(saved.status) \(saved.text)")
            #expect(try await service.mvpds.view(id: "ValleyCable").name == "Valley Console")
            let back = try await AdminAPITests.call(local, .PATCH, "/admin/api/mvpds/ValleyCable", json: ["displayName": ""], token: token)
            #expect(back.status == 200 && back.object["name"] as? String == "Valley Cable Co", "\(back.text)")
            ref = try await service.repository.catalogStore.mvpds(requestor: "REF")
            #expect(ref.first { $0.id == "ValleyCable" }?.displayName == "Valley Cable Co")

            // Catalog as code: the statement of no requestor is exported as such, and such a document is valid.
            let document = try await service.catalogAsCode.export()
            let statement = try #require(document.softwareStatements.first { $0.proxyMVPD == "SmallProxy" })
            #expect(statement.requestor.isEmpty && statement.redirectURIs.isEmpty)
            let issues = CatalogValidation.issues(document, current: document, prune: false).filter { $0.path.hasPrefix("softwareStatements") }
            #expect(issues.isEmpty, "\(issues)")

            // Who did what: the operators' changes and the client's pushes.
            let changes = try await service.repository.changeLogStore.changes(since: 0)
            #expect(changes.contains { $0.target == "ValleyCable" && $0.action == "mvpd.update" && $0.actor == "operator:ops" })
            #expect(changes.contains { $0.target == "ValleyCable" && $0.action == "mvpd.update" && $0.actor == "operator:console-ops" })
            #expect(changes.contains { $0.target == "REF/HillsFiber" && $0.action == "integration.disable" && $0.actor == "operator:ops" })
            #expect(changes.filter { $0.target == "SmallProxy" && $0.action == "mvpd.proxied.push" && $0.actor.hasPrefix("client:") }.count == 2)
            #expect(
                changes.contains {
                    $0.action == "software-statement.create" && $0.actor == "operator:ops" && ($0.valueAfter ?? "").contains("SmallProxy")
                })
        }
    }
}
