import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Preflight by channel lineup from an IdP this project did not write: the pysaml2 IdP (`scripts/pysaml2-idp`) releases
/// `authorized_resources` for grace; Entitle keeps it with the sign-in and answers preauthorize from it, with no call
/// to the MVPD's authorization endpoint (the DemoMVPD's, counted there). The IdP runs as a process on loopback and is
/// stopped by the test.
@Suite(.timeLimit(.minutes(10))) struct PreflightLineupForeignIdPTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/xmlsec1") || ProcessInfo.processInfo.environment["CI"] == "true"))
    func aLineupReleasedByPysaml2AnswersPreauthorize() async throws {
        try await LocalService.run { local in
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("entitle-lineup-idp-" + UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let http = local.httpClient
            let spMetadata = folder.appendingPathComponent("sp-metadata.xml")
            try Data(try await ProductionOnboardingTests.fetch(http, local.baseURL + "/sp/saml/metadata").text.utf8).write(to: spMetadata)
            let idpPort = try freePort()
            let idp = try DeviceProcess(
                binary: URL(fileURLWithPath: "/bin/bash"),
                arguments: [
                    DeviceCommandTests.packageRoot.appendingPathComponent("scripts/pysaml2-idp/run.sh").path, "--port", "\(idpPort)",
                    "--sp-metadata", spMetadata.path, "--workdir", folder.path,
                ], directory: folder)
            defer { idp.stop() }
            _ = try await idp.waitForOutput(containing: "ready", timeout: 300)
            // pysaml2 stamps its assertions with the real time; the service's test clock stood still while the IdP
            // started (a minute or more on a loaded machine), which would make them look issued in the future.
            local.clock.advance(by: max(0, Date().timeIntervalSince(local.clock.now())))
            let idpMetadata = try await ProductionOnboardingTests.fetch(http, "http://127.0.0.1:\(idpPort)/idp/metadata").text

            // The MVPD: pysaml2 for sign-in, the DemoMVPD's authorization endpoint (which does not know grace) for plays.
            let demoCable = try #require(try await local.service.repository.catalog.mvpd(id: "DemoCable"))
            let options = MVPDOptions(
                displayName: "Py IdP", logoURL: "", authorizationURL: demoCable.authorizationUrl, authorizationKey: demoCable.authorizationKey)
            _ = try await local.service.mvpds.importSAML(id: "PyIdP", metadataXML: idpMetadata, options: options, requestors: ["REF"], actor: "test")
            try await local.service.integrations.setPreflightMode(requestor: "REF", mvpd: "PyIdP", .lineup, actor: "test")

            // Sign-in through pysaml2 (the generic web flow: the login form, then the auto-post form back to us).
            let tv = try await local.client()
            let created = try await tv.createSession(mvpd: "PyIdP", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            let browser = local.browser()
            guard case .page(var page) = try await browser.get(local.baseURL + (try #require(created.url))) else {
                throw BrowserError("no page at the authentication URL")
            }
            if let post = page.forms.first(where: { $0["SAMLRequest"] != nil && !$0.fields.contains { $0.0 == "password" } }) {
                guard case .page(let form) = try await browser.submit(post, from: page) else { throw BrowserError("no login page") }
                page = form
            }
            var login = try #require(page.forms.first { $0.fields.contains { $0.0 == "password" } }, "\(page.body)")
            login.set("username", "grace")
            login.set("password", "grace-pass")
            guard case .page(let answer) = try await browser.submit(login, from: page),
                let samlForm = answer.forms.first(where: { $0["SAMLResponse"] != nil })
            else { throw BrowserError("no SAML answer from the IdP") }
            let consumed = try await browser.submit(samlForm, from: answer)
            guard case .external = consumed else { throw BrowserError("not redirected to the app: \(consumed)") }

            let code = try #require(created.code)
            let profile = try #require(try await local.service.repository.profiles.profile(requestor: "REF", sessionCode: code))
            #expect(profile.userId == "G-200" || profile.nameId == "G-200", "\(profile)")
            #expect(profile.lineup == #"["news","sports"]"#, "the lineup pysaml2 released: \(profile.attributes)")
            let demo = try #require(local.host.demo)
            let before = demo.authorizationRequests.count
            let decisions = try await tv.decisions("preauthorize", mvpd: "PyIdP", resources: ["news", "sports", "movies"])
                .decode(DecisionsResponse.self).decisions
            #expect(decisions.map(\.authorized) == [true, true, false], "\(decisions)")
            #expect(decisions[2].error?.code == .preauthorizationDeniedByMVPD)
            #expect(demo.authorizationRequests.count == before, "no MVPD call at preauthorize")
            _ = try await tv.decisions("authorize", mvpd: "PyIdP", resources: ["news"])
            #expect(demo.authorizationRequests.count == before + 1, "authorize asks the MVPD")
        }
    }
}
