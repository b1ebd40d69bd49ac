import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import SAML
import Testing

/// Proxy MVPDs (issue 40): a proxy's web-service client keeps its proxied MVPDs current through Adobe's Proxy MVPD Web
/// Service, and a viewer signs in with a proxied MVPD through the proxy — here the pysaml2 IdP (`--proxy`), an IdP this
/// project did not write, answering in the name of the proxied MVPD the AuthnRequest's Scoping names.
@Suite(.timeLimit(.minutes(10))) struct ProxyMVPDTests {
    static let path = "/control/v3/mvpd-proxies/SmallProxy/mvpds"

    static let twoProxied = """
        <?xml version="1.0" encoding="UTF-8"?>
        <proxiedMvpds>
            <proxiedMvpd>
                <displayName>Valley Cable</displayName>
                <id>ValleyCable</id>
                <logoURL>https://valley.example/logo.png</logoURL>
            </proxiedMvpd>
            <proxiedMvpd>
                <id ProviderID="urn:hills:fiber">HillsFiber</id>
                <displayName>Hills Fiber</displayName>
                <logoURL></logoURL>
                <iframeSize>
                    <iframeHeight>400</iframeHeight>
                    <iframeWidth>340</iframeWidth>
                </iframeSize>
                <requestorIds>
                    <requestorId>NET2</requestorId>
                </requestorIds>
            </proxiedMvpd>
        </proxiedMvpds>
        """

    /// A SAML MVPD marked as a proxy, integrated with REF; a second requestor NET2; a software statement for the
    /// proxy's web-service client and that client, registered with it.
    static func proxyAndPusher(
        _ local: LocalService, proxy: String = "SmallProxy", metadata: String? = nil
    ) async throws -> RESTClient {
        let service = local.service
        if let metadata {
            var options = MVPDOptions(displayName: "Py Proxy", logoURL: "")
            options.authorizeAllAuthenticated = true
            _ = try await service.mvpds.importSAML(id: proxy, metadataXML: metadata, options: options, requestors: ["REF"], actor: "ops")
        } else {
            try await service.repository.catalogStore.upsertMVPD(
                MVPDRecord(
                    id: proxy, displayName: "Small Proxy", logoUrl: "", kind: .saml, entityId: "urn:test:small-proxy",
                    ssoUrl: "https://proxy.example/sso", certificates: [], requiresSafariViewController: false, enablePlatformServices: false,
                    displayInPlatformPicker: false, profileTtlSeconds: 86_400, encryptedAttributes: []))
            try await service.repository.catalogStore.setIntegration(requestor: "REF", mvpd: proxy, enabled: true)
        }
        try await service.proxyMVPDs.markProxy(id: proxy, listed: false, allowedAddresses: ["127.0.0.0/8", "::1"], actor: "ops")
        try await service.requestors.save(id: "NET2", name: "Second Network", domains: ["net2.example"], metadataCertificatePEM: nil)
        let (softwareID, jwt) = try await service.applications.issueSoftwareStatement(
            requestor: "REF", name: "Small Proxy push", redirectURIs: ["https://proxy.example/cb"], actor: "ops")
        try await service.proxyMVPDs.allowSoftwareStatement(softwareID, proxy: proxy, actor: "ops")
        var pusher = RESTClient(transport: local.transport, baseURL: local.baseURL, serviceProvider: "REF", deviceID: "proxy-backend")
        _ = try await pusher.registerAndAuthorize(softwareStatement: jwt)
        return pusher
    }

    static func configurationIDs(_ local: LocalService, requestor: String) async throws -> [String] {
        try await local.service.repository.catalogStore.mvpds(requestor: requestor).map(\.id)
    }

    @Test func theProxyPushesListsAndRemovesItsProxiedMVPDsAndBadPushesChangeNothing() async throws {
        try await LocalService.run { local in
            let pusher = try await Self.proxyAndPusher(local)
            let pushed = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", Self.twoProxied)])
            #expect(pushed.status == 201, "\(pushed.text)")

            // GET answers Adobe's XML, what was pushed.
            let listed = try await pusher.send(.GET, Self.path)
            #expect(listed.status == 200 && listed.text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<proxiedMvpds>"), "\(listed.text)")
            #expect(listed.text.contains("<id ProviderID=\"urn:hills:fiber\">HillsFiber</id>"), "\(listed.text)")
            #expect(try ProxiedMVPDList.parse(xml: listed.text) == ProxiedMVPDList.parse(xml: Self.twoProxied))

            // Pickers: ValleyCable (no requestorIds) joins the proxy's requestor REF; HillsFiber only NET2; the proxy
            // itself is in none.
            let ref = try await Self.configurationIDs(local, requestor: "REF")
            #expect(ref.contains("ValleyCable") && !ref.contains("HillsFiber") && !ref.contains("SmallProxy"), "\(ref)")
            #expect(try await Self.configurationIDs(local, requestor: "NET2") == ["HillsFiber"])
            let viewer = try await local.client()
            let configuration = try await viewer.send(.GET, "/api/v2/REF/configuration")
            #expect(configuration.text.contains("Valley Cable") && configuration.text.contains("https://valley.example/logo.png"))
            #expect(!configuration.text.contains("SmallProxy") && !configuration.text.contains("HillsFiber"), "\(configuration.text)")

            // The MVPD views name the proxy; the changes log names the pushing client.
            let hills = try await local.service.mvpds.view(id: "HillsFiber")
            #expect(hills.proxyMVPD == "SmallProxy" && hills.entityID == "urn:hills:fiber" && hills.proxied?.iframeWidth == 340)
            #expect(try await local.service.mvpds.view(id: "SmallProxy").proxy?.listed == false)
            let change = try #require(try await local.service.repository.changeLogStore.changes(since: 0).last)
            #expect(change.action == "mvpd.proxied.push" && change.target == "SmallProxy" && change.actor.hasPrefix("client:"), "\(change)")
            #expect((change.valueAfter ?? "").contains("\"added\":[\"ValleyCable\",\"HillsFiber\"]"), "\(change.valueAfter ?? "")")

            // Bad pushes are refused and change nothing.
            let ordinaryApp = try await local.client()
            let bad: [(String, [(String, String)], RESTClient, Bool, Int)] = [
                ("schema", [("proxied-mvpds", "<proxiedMvpds><proxiedMvpd><id>X</id></proxiedMvpd></proxiedMvpds>")], pusher, true, 400),
                ("unknown element", [("proxied-mvpds", "<proxiedMvpds><mvpd/></proxiedMvpds>")], pusher, true, 400),
                (
                    "DOCTYPE",
                    [
                        (
                            "proxied-mvpds",
                            "<!DOCTYPE x [<!ENTITY e \"E\">]><proxiedMvpds><proxiedMvpd><id>A</id><displayName>&e;</displayName><logoURL/></proxiedMvpd></proxiedMvpds>"
                        )
                    ],
                    pusher, true, 400
                ),
                (
                    "duplicate ids",
                    [
                        (
                            "proxied-mvpds",
                            "<proxiedMvpds>"
                                + String(repeating: "<proxiedMvpd><id>Dup</id><displayName>D</displayName><logoURL/></proxiedMvpd>", count: 2)
                                + "</proxiedMvpds>"
                        )
                    ],
                    pusher, true, 400
                ),
                (
                    "bad id",
                    [
                        (
                            "proxied-mvpds",
                            "<proxiedMvpds><proxiedMvpd><id>-bad</id><displayName>B</displayName><logoURL/></proxiedMvpd></proxiedMvpds>"
                        )
                    ], pusher, true, 400
                ),
                (
                    "unknown requestor",
                    [
                        (
                            "proxied-mvpds",
                            "<proxiedMvpds><proxiedMvpd><id>New</id><displayName>N</displayName><logoURL/><requestorIds><requestorId>NOPE</requestorId></requestorIds></proxiedMvpd></proxiedMvpds>"
                        )
                    ],
                    pusher, true, 400
                ),
                (
                    "another MVPD's id",
                    [
                        (
                            "proxied-mvpds",
                            "<proxiedMvpds><proxiedMvpd><id>DemoCable</id><displayName>Mine</displayName><logoURL/></proxiedMvpd></proxiedMvpds>"
                        )
                    ], pusher, true, 400
                ),
                (
                    "another MVPD's entity id",
                    [
                        (
                            "proxied-mvpds",
                            "<proxiedMvpds><proxiedMvpd><id ProviderID=\"urn:test:small-proxy\">Sneaky</id><displayName>S</displayName><logoURL/></proxiedMvpd></proxiedMvpds>"
                        )
                    ],
                    pusher, true, 400
                ),
                ("no field", [("other", "x")], pusher, true, 400),
                ("no token", [("proxied-mvpds", "<proxiedMvpds/>")], pusher, false, 401),
                ("an app's token", [("proxied-mvpds", "<proxiedMvpds/>")], ordinaryApp, true, 403),
            ]
            for (name, form, client, authorized, status) in bad {
                let answer = try await client.send(.POST, Self.path, form: form, authorized: authorized)
                #expect(answer.status == status, "\(name): \(answer.status) \(answer.text)")
                #expect(try await pusher.send(.GET, Self.path).text == listed.text, "\(name) changed the proxied MVPDs")
            }
            let notProxy = try await pusher.send(.POST, "/control/v3/mvpd-proxies/DemoCable/mvpds", form: [("proxied-mvpds", "<proxiedMvpds/>")])
            #expect(notProxy.status == 403, "\(notProxy.text)")
            #expect(try await pusher.send(.GET, "/control/v3/mvpd-proxies/DemoCable/mvpds").status == 403)
            #expect(try await ordinaryApp.send(.GET, Self.path).status == 403)
            #expect(try await pusher.send(.GET, Self.path, authorized: false).status == 401)
            #expect(try await pusher.send(.PUT, Self.path).status == 405)
            // From an address the proxy does not allow: 401.
            try await local.service.proxyMVPDs.markProxy(id: "SmallProxy", listed: false, allowedAddresses: ["10.0.0.0/8"], actor: "ops")
            let elsewhere = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", "<proxiedMvpds/>")])
            #expect(elsewhere.status == 401, "\(elsewhere.text)")
            try await local.service.proxyMVPDs.markProxy(id: "SmallProxy", listed: false, allowedAddresses: [], actor: "ops")
            #expect(try await pusher.send(.GET, Self.path).text == listed.text)
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.proxyMvpdId == nil)

            // Listed in its own right, the proxy joins REF's picker.
            try await local.service.proxyMVPDs.markProxy(id: "SmallProxy", listed: true, allowedAddresses: [], actor: "ops")
            #expect(try await Self.configurationIDs(local, requestor: "REF").contains("SmallProxy"))

            // An empty list removes them all.
            let emptied = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", "<proxiedMvpds></proxiedMvpds>")])
            #expect(emptied.status == 201, "\(emptied.text)")
            #expect(try await pusher.send(.GET, Self.path).text == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<proxiedMvpds>\n</proxiedMvpds>\n")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "ValleyCable") == nil)
            #expect(try await local.service.repository.catalogStore.mvpd(id: "HillsFiber") == nil)
            #expect(!(try await Self.configurationIDs(local, requestor: "REF").contains("ValleyCable")))
            #expect(try await Self.configurationIDs(local, requestor: "NET2").isEmpty)
            let last = try #require(try await local.service.repository.changeLogStore.changes(since: 0).last)
            #expect((last.valueAfter ?? "").contains("\"removed\":[\"ValleyCable\",\"HillsFiber\"]"), "\(last.valueAfter ?? "")")
        }
    }

    /// `entitle admin mvpd add … --proxy` and `software-statement create --proxy-mvpd` as processes on the service's
    /// storage; the statement's client may then push; bad combinations are refused and change nothing.
    @Test func aProxyAndItsWebServiceClientAreSetUpFromTheCommandLine() async throws {
        try await LocalService.run { local in
            let metadata = try await ProductionOnboardingTests.fetch(local.httpClient, local.baseURL + "/demo-mvpd/DemoFiber/saml/metadata").text
            let file = NSTemporaryDirectory() + "entitle-proxy-metadata-" + UUID().uuidString + ".xml"
            try Data(metadata.utf8).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let refused = try await PreflightLineupCommandTests.admin(
                local, ["mvpd", "add", "--id", "CliProxy", "--name", "Cli Proxy", "--saml-metadata", file, "--proxy-listed"])
            #expect(refused.status != 0 && refused.stderr.contains("need --proxy"), "\(refused.stderr)")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "CliProxy") == nil)
            let added = try await PreflightLineupCommandTests.admin(
                local,
                [
                    "mvpd", "add", "--id", "CliProxy", "--name", "Cli Proxy", "--saml-metadata", file, "--requestor", "REF", "--proxy",
                    "--proxy-allowed-address", "127.0.0.1", "--proxy-allowed-address", "192.0.2.0/24",
                ])
            #expect(added.status == 0, "\(added.stderr)")
            let proxy = try await local.service.mvpds.view(id: "CliProxy").proxy
            #expect(
                proxy == ProxyMVPDRecord(mvpdId: "CliProxy", listed: false, allowedAddresses: ["127.0.0.1/32", "192.0.2.0/24"]),
                "\(String(describing: proxy))")
            #expect(!(try await Self.configurationIDs(local, requestor: "REF").contains("CliProxy")), "an unlisted proxy is in no picker")
            let list = try await PreflightLineupCommandTests.admin(local, ["mvpd", "list"])
            #expect(list.stdout.contains("CliProxy\tsaml\tCli Proxy") && list.stdout.contains("\tproxy\n"), "\(list.stdout)")

            let notProxy = try await PreflightLineupCommandTests.admin(
                local,
                [
                    "software-statement", "create", "--requestor", "REF", "--name", "Push", "--redirect-uri", "https://p.example/cb", "--proxy-mvpd",
                    "DemoCable",
                ])
            #expect(notProxy.status != 0 && notProxy.stderr.contains("not a proxy"), "\(notProxy.stderr)")
            let created = try await PreflightLineupCommandTests.admin(
                local,
                [
                    "software-statement", "create", "--requestor", "REF", "--name", "Push", "--redirect-uri", "https://p.example/cb", "--proxy-mvpd",
                    "CliProxy",
                ])
            #expect(created.status == 0, "\(created.stderr)")
            var pusher = RESTClient(transport: local.transport, baseURL: local.baseURL, serviceProvider: "REF", deviceID: "cli-proxy")
            _ = try await pusher.registerAndAuthorize(softwareStatement: created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let pushed = try await pusher.send(
                .POST, "/control/v3/mvpd-proxies/CliProxy/mvpds",
                form: [
                    (
                        "proxied-mvpds",
                        "<proxiedMvpds><proxiedMvpd><id>Tiny</id><displayName>Tiny TV</displayName><logoURL/></proxiedMvpd></proxiedMvpds>"
                    )
                ])
            #expect(pushed.status == 201, "\(pushed.text)")
            #expect(try await Self.configurationIDs(local, requestor: "REF").contains("Tiny"))
            let shown = try await PreflightLineupCommandTests.admin(local, ["mvpd", "list"])
            #expect(shown.stdout.contains("Tiny\tsaml\tTiny TV\tTiny\tproxied by CliProxy"), "\(shown.stdout)")
        }
    }

    @Test(.enabled(if: Pysaml2IdP.available))
    func aViewerSignsInWithAProxiedMVPDThroughTheProxyAndOnlyItsAnswerCounts() async throws {
        try await LocalService.run { local in
            let idp = try await Pysaml2IdP.start(for: local, proxy: true)
            defer { idp.stop() }
            let pusher = try await Self.proxyAndPusher(local, metadata: idp.metadata)
            let proxied = Self.twoProxied.replacingOccurrences(of: "<requestorId>NET2</requestorId>", with: "<requestorId>REF</requestorId>")
                .replacingOccurrences(of: "<id>ValleyCable</id>", with: "<id ProviderID=\"urn:valley:cable\">ValleyCable</id>")
            let pushed = try await pusher.send(.POST, Self.path, form: [("proxied-mvpds", proxied)])
            #expect(pushed.status == 201, "\(pushed.text)")
            let valley = try #require(try await local.service.repository.catalogStore.mvpd(id: "ValleyCable"))
            let proxy = try #require(try await local.service.repository.catalogStore.mvpd(id: "SmallProxy"))
            #expect(valley.certificates == proxy.certificates && valley.ssoUrl == proxy.ssoUrl && valley.entityId == "urn:valley:cable")

            // The IdP answers only a request whose Scoping names a proxied MVPD, in that MVPD's name.
            let viewer = try await local.client()
            let session = try await viewer.createSession(mvpd: "ValleyCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            try await Pysaml2IdP.signIn(local, session: session, username: "frank", password: "frank-pass")
            let profiles = try await viewer.send(.GET, "/api/v2/REF/profiles/ValleyCable").decode(ProfilesResponse.self).profiles
            let profile = try #require(profiles["ValleyCable"], "\(profiles)")
            #expect(profile.attributes["userID"]?.value == .string("F-100"), "\(profile.attributes)")
            let decisions = try await viewer.decisions("authorize", mvpd: "ValleyCable", resources: ["news"]).decode(DecisionsResponse.self).decisions
            let token = try #require(decisions.first?.token?.serializedToken, "\(decisions)")
            let tokenText = String(decoding: Data(base64Encoded: token) ?? Data(token.utf8), as: UTF8.self)
            #expect(tokenText.contains("<mvpdId>ValleyCable</mvpdId><proxyMvpdId>SmallProxy</proxyMvpdId>"), "\(tokenText)")

            // An answer in the name of the other proxied MVPD is refused: no profile.
            let other = try await local.client()
            let otherSession = try await other.createSession(mvpd: "ValleyCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            let otherAnswer = try await Pysaml2IdP.answer(
                local, session: otherSession, username: "frank", password: "frank-pass", extra: [("as_provider", "urn:hills:fiber")])
            guard case .page(let refusedPage) = otherAnswer else { Issue.record("accepted: \(otherAnswer)"); return }
            #expect(refusedPage.status == 400 && refusedPage.body.contains("could not be accepted"), "\(refusedPage.body)")
            #expect(try await other.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)

            // The proxy's certificates change (here to another IdP's): its proxied MVPDs follow at once, and an answer
            // in the right name signed with the key the proxy no longer has is refused.
            let impostor = try await Pysaml2IdP.start(for: local, proxy: true)
            defer { impostor.stop() }
            _ = try await local.service.mvpds.importSAML(
                id: "Impostor", metadataXML: impostor.metadata, options: MVPDOptions(displayName: "Impostor", logoURL: ""), requestors: [],
                actor: "ops")
            let otherKey = try #require(try await local.service.repository.catalogStore.mvpd(id: "Impostor")).certificates
            var rekeyed = proxy
            rekeyed.certificates = otherKey
            try await local.service.repository.catalogStore.upsertMVPD(rekeyed)
            #expect(try await local.service.repository.catalogStore.mvpd(id: "ValleyCable")?.certificates == otherKey)
            #expect(try await local.service.repository.catalogStore.mvpd(id: "HillsFiber")?.certificates == otherKey)
            let third = try await local.client()
            let thirdSession = try await third.createSession(mvpd: "ValleyCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            let thirdAnswer = try await Pysaml2IdP.answer(local, session: thirdSession, username: "frank", password: "frank-pass")
            guard case .page(let unsignedPage) = thirdAnswer else { Issue.record("accepted: \(thirdAnswer)"); return }
            #expect(unsignedPage.status == 400 && unsignedPage.body.contains("could not be accepted"), "\(unsignedPage.body)")
            #expect(try await third.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)
        }
    }
}
