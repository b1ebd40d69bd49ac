import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Production from zero, as an operator does it: `entitle serve --no-demo` on an empty data directory with an operations
/// address, a requestor and an operator account made with the CLI, a standard SAML IdP that this project did not write
/// (pysaml2, `scripts/pysaml2-idp`) onboarded from its metadata, software statements issued by the CLI and by the admin
/// API, a device signed in through that IdP getting a media token, the integration disabled through the API and
/// refused within the catalog bound, and every step in the changes log. Everything runs as real processes on loopback.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProductionOnboardingTests {
    static let operatorPassword = "onboarding-password-1"

    /// A running process stopped by `stop()`.
    struct Processes {
        var all: [DeviceProcess] = []
        func stop() { for process in all { process.stop() } }
    }

    static func waitForHTTP(_ url: String, _ client: HTTPClient, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let response = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5)), response.status.code < 500 { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw BrowserError("nothing answers \(url)")
    }

    static func fetch(_ client: HTTPClient, _ url: String) async throws -> (status: Int, text: String) {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: AnswerPatience.timeAmount)
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    static func postJSON(_ client: HTTPClient, _ url: String, _ json: Any, method: HTTPMethod = .POST, token: String? = nil) async throws
        -> (status: Int, object: [String: Any])
    {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: json)))
        let response = try await client.execute(request, timeout: AnswerPatience.timeAmount)
        let data = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        return (Int(response.status.code), (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    @Test func anOperatorOnboardsARealIdPAndAnAppPlaysThenTheIntegrationIsDisabled() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-onboarding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let data = folder.appendingPathComponent("data").path
        var processes = Processes()
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        defer {
            processes.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        do {
            let (port, adminPort, idpPort) = (try freePort(), try freePort(), try freePort())
            let base = "http://127.0.0.1:\(port)", admin = "http://127.0.0.1:\(adminPort)"
            let binary = try DeviceCommandTests.binary()
            func cli(_ arguments: [String], input: String? = nil) async throws -> DeviceProcess.Result {
                let process = try DeviceProcess(
                    binary: binary, arguments: ["admin"] + arguments + ["--data-dir", data], directory: folder, standardInput: input)
                defer { process.stop() }
                return try await process.finish(timeout: DeviceProcess.patience)
            }

            // 1. The service, production mode, with an operations address.
            let serve = try DeviceProcess(
                binary: binary,
                arguments: [
                    "serve", "--no-demo", "--port", "\(port)", "--admin-port", "\(adminPort)", "--data-dir", data, "--rate-limit", "0",
                    "--catalog-refresh-ms", "500",
                ], directory: folder)
            processes.all.append(serve)
            _ = try await serve.waitForOutput(containing: "Entitle is running", timeout: DeviceProcess.patience)
            try await Self.waitForHTTP(admin + "/healthz", http, timeout: 30)
            #expect(try await Self.fetch(http, base + "/metrics").status == 404, "metrics only on the operations address")
            #expect(try await Self.fetch(http, base + "/admin/api/requestors").status == 404)
            #expect(try await Self.fetch(http, admin + "/metrics").status == 200)
            #expect(try await Self.fetch(http, admin + "/admin/api/requestors").status == 401)

            // 2. The requestor and an operator account, with the CLI.
            let requestor = try await cli(["requestor", "add", "--id", "MYNET", "--name", "My Network", "--domain", "mynet.example"])
            #expect(requestor.status == 0, "\(requestor.stderr)")
            let account = try await cli(["operator", "add", "--username", "ops", "--role", "read-write"], input: Self.operatorPassword + "\n")
            #expect(account.status == 0, "\(account.stderr)")
            let short = try await cli(["operator", "add", "--username", "weak", "--role", "read-only"], input: "short\n")
            #expect(short.status == 1 && short.stderr.contains("at least 12 characters"), "\(short.stderr)")

            // 3. The MVPD: a pysaml2 IdP that trusts our SP metadata, onboarded from its own metadata.
            let spMetadata = folder.appendingPathComponent("sp-metadata.xml")
            try Data(try await Self.fetch(http, base + "/sp/saml/metadata").text.utf8).write(to: spMetadata)
            let idp = try DeviceProcess(
                binary: URL(fileURLWithPath: "/bin/bash"),
                arguments: [
                    DeviceCommandTests.packageRoot.appendingPathComponent("Tests/Support/pysaml2-idp/run.sh").path, "--port", "\(idpPort)",
                    "--sp-metadata",
                    spMetadata.path, "--workdir", folder.path,
                ], directory: folder)
            processes.all.append(idp)
            _ = try await idp.waitForOutput(containing: "ready", timeout: 300)
            let idpMetadata = folder.appendingPathComponent("idp-metadata.xml")
            try Data(try await Self.fetch(http, "http://127.0.0.1:\(idpPort)/idp/metadata").text.utf8).write(to: idpMetadata)
            let mvpd = try await cli([
                "mvpd", "add", "--id", "PyIdP", "--name", "Py IdP", "--saml-metadata", idpMetadata.path, "--requestor", "MYNET", "--authorize-all",
            ])
            #expect(mvpd.status == 0, "\(mvpd.stderr)")
            let flags = try await cli(["mvpd", "update", "--id", "PyIdP", "--requires-safari-view-controller", "true"])
            #expect(flags.status == 0, "\(flags.stderr)")
            // Its metadata also by URL, from pysaml2's own endpoint, as the service's scheduled refresh reads it.
            let byURL = try await cli(["mvpd", "update", "--id", "PyIdP", "--saml-metadata-url", "http://127.0.0.1:\(idpPort)/idp/metadata"])
            #expect(byURL.status == 0, "\(byURL.stderr)")
            let refreshed = try await cli(["mvpd", "refresh", "--id", "PyIdP"])
            #expect(refreshed.status == 0 && refreshed.stdout.contains("no metadata changed"), "\(refreshed.stdout) \(refreshed.stderr)")

            // 4. Software statements: one from the CLI, one from the admin API.
            let statement = try await cli([
                "software-statement", "create", "--requestor", "MYNET", "--name", "MyNet TV", "--redirect-uri", "mynet://callback",
            ])
            #expect(statement.status == 0, "\(statement.stderr)")
            let cliJWT = statement.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let session = try await Self.postJSON(http, admin + "/admin/api/session", ["username": "ops", "password": Self.operatorPassword])
            #expect(session.status == 201)
            let token = try #require(session.object["token"] as? String)
            let issued = try await Self.postJSON(
                http, admin + "/admin/api/software-statements",
                ["requestor": "MYNET", "name": "MyNet TV (API)", "redirectURIs": ["mynet://callback"]], token: token)
            #expect(issued.status == 201)
            let apiJWT = try #require(issued.object["softwareStatement"] as? String)
            #expect(apiJWT != cliJWT)

            // 5. A device signs in through the pysaml2 IdP (the generic web flow: post the auto-post form, fill the
            //    login form, post the answer back) and plays.
            for jwt in [cliJWT, apiJWT] {
                var tv = RESTClient(httpClient: http, baseURL: base, serviceProvider: "MYNET", deviceID: "device-" + UUID().uuidString)
                _ = try await tv.registerAndAuthorize(softwareStatement: jwt, redirectURI: "mynet://callback")
                #expect(try await tv.send(.GET, "/api/v2/MYNET/configuration").text.contains("PyIdP"))
                let created = try await tv.createSession(mvpd: "PyIdP", redirectURL: "mynet://callback").decode(SessionResponse.self)
                let browser = BrowserClient(httpClient: http)
                guard case .page(var page) = try await browser.get(base + (try #require(created.url))) else {
                    Issue.record("no page at the authentication URL")
                    return
                }
                if let post = page.forms.first(where: {
                    $0["SAMLRequest"] != nil && $0["password"] == nil && !$0.fields.contains { $0.0 == "password" }
                }) {
                    guard case .page(let login) = try await browser.submit(post, from: page) else { throw BrowserError("no login page") }
                    page = login
                }
                var login = try #require(page.forms.first { $0.fields.contains { $0.0 == "password" } }, "\(page.body)")
                login.set("username", "frank")
                login.set("password", "frank-pass")
                guard case .page(let answer) = try await browser.submit(login, from: page),
                    let samlForm = answer.forms.first(where: { $0["SAMLResponse"] != nil })
                else { throw BrowserError("no SAML answer from the IdP") }
                let end = try await browser.submit(samlForm, from: answer)
                guard case .external(let redirect) = end else { throw BrowserError("not redirected to the app: \(end)") }
                #expect(redirect.hasPrefix("mynet://callback"), "\(redirect)")
                let profile = try await tv.send(.GET, "/api/v2/MYNET/profiles/PyIdP").text
                #expect(profile.contains("F-100"), "the user id pysaml2 sent: \(profile)")
                let decisions = try await tv.decisions("authorize", mvpd: "PyIdP", resources: ["news"]).decode(DecisionsResponse.self).decisions
                #expect(decisions.first?.authorized == true && decisions.first?.token != nil, "\(decisions)")
            }

            // 6. The integration is disabled during a dispute: refused within the catalog bound (500 ms).
            var tv = RESTClient(httpClient: http, baseURL: base, serviceProvider: "MYNET", deviceID: "device-" + UUID().uuidString)
            _ = try await tv.registerAndAuthorize(softwareStatement: apiJWT, redirectURI: "mynet://callback")
            let disabled = try await Self.postJSON(
                http, admin + "/admin/api/integrations/MYNET/PyIdP", ["enabled": false], method: .PUT, token: token)
            #expect(disabled.status == 200 && disabled.object["enabled"] as? Bool == false)
            try await Task.sleep(for: .milliseconds(1200))
            #expect(!(try await tv.send(.GET, "/api/v2/MYNET/configuration").text.contains("PyIdP")))
            let refused = try await tv.createSession(mvpd: "PyIdP", redirectURL: "mynet://callback")
            #expect(refused.status >= 400, "\(refused.status) \(refused.text)")

            // 7. Every step in the changes log, with who did it.
            let changes = try await cli(["changes", "list", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [[String: Any]])
            let steps = entries.map { "\(($0["actor"] as? String ?? "").hasPrefix("cli:") ? "cli" : $0["actor"] ?? "") \($0["action"] ?? "")" }
            for step in [
                "cli requestor.add", "cli operator.add", "cli mvpd.add", "cli mvpd.update", "cli software-statement.create",
                "operator:ops software-statement.create", "operator:ops integration.disable",
            ] {
                #expect(steps.contains(step), "\(step) in \(steps)")
            }
            #expect(!changes.stdout.contains(Self.operatorPassword))
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }
}
