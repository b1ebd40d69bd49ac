import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
import EntitleClients
import EntitleTesting
#endif

/// What a newcomer meets in the first hour at the command line: the `entitle` binary runs as a real process against a
/// real service (in process, or `entitle serve` itself).
@Suite(.serialized, .timeLimit(.minutes(10))) struct FirstHourCommandTests {
    typealias DeviceBox = DeviceCommandTests.DeviceBox

    /// Runs `entitle <arguments>` in a fresh directory with extra environment variables.
    static func entitle(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) async throws -> DeviceProcess.Result {
        let folder = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("entitle-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(at: folder) } }
        let process = try DeviceProcess(binary: try DeviceCommandTests.binary(), arguments: arguments, directory: folder, environment: environment)
        defer { process.stop() }
        return try await process.finish(timeout: DeviceProcess.patience)
    }

    /// How many requests the service answered on `route` (from `/metrics`).
    static func requests(_ service: LocalService, route: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: URL(string: service.baseURL + "/metrics")!)
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("route=\"\(route)\"") && $0.contains("requests") && !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }

    /// Signs the device in with `login --mvpd DemoCable`: the activation page goes straight to the provider's login.
    static func loginSkippingThePicker(_ device: DeviceBox, service: LocalService, extra: [String] = []) async throws -> DeviceProcess.Result {
        let login = try device.start(["login", "--mvpd", "DemoCable"] + extra)
        defer { login.stop() }
        let line = try await login.waitForOutput(containing: "Activation URL:", timeout: DeviceProcess.patience)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        let browser = service.browser()
        guard case .page(let entry) = try await browser.get(url) else { throw BrowserError("no activation page") }
        let form = try #require(entry.forms.first { $0["code"] != nil })
        guard case .page(let loginPage) = try await browser.followingAutoPost(try await browser.submit(form, from: entry)) else {
            throw BrowserError("no MVPD login")
        }
        #expect(loginPage.url.contains("/demo-mvpd/DemoCable/saml/sso"), "the picker was not skipped: \(loginPage.url)")
        #expect(!loginPage.body.contains("Choose your TV provider"))
        var credentials = try #require(loginPage.forms.first { $0["password"] != nil })
        credentials.set("username", "alice")
        credentials.set("password", "alice-pass")
        guard case .page(let post) = try await browser.submit(credentials, from: loginPage) else { throw BrowserError("no SAML post") }
        let saml = try #require(post.forms.first { $0["SAMLResponse"] != nil })
        guard case .page(let done) = try await browser.submit(saml, from: post) else { throw BrowserError("no success page") }
        #expect(done.body.contains("Your Demo Cable account is now linked."))
        return try await login.finish(timeout: DeviceProcess.patience)
    }

    @Test func theREADMEsCommandBlockReusesOneAccessTokenAndStaysUnderTheThrottle() async throws {
        try await LocalService.run(rateLimit: 1, burst: 10) { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            let login = try await Self.loginSkippingThePicker(device, service: service, extra: ["--no-qr"])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stdout.contains("Signed in with Demo Cable"))
            #expect(!login.stdout.contains("scan the QR code") && !login.stdout.contains("\u{2588}"))
            let tokensAfterLogin = try await Self.requests(service, route: "/o/client/token")

            // The service's buckets refill on its own (manual) clock: a person takes a minute to sign in, then runs the
            // README's block back to back (each command takes about a second).
            service.clock.advance(by: 60)
            for command in [["status"], ["providers"], ["authorize", "movies"], ["preauthorize", "news", "sports", "movies"], ["metadata", "zip"]] {
                service.clock.advance(by: 1)
                let result = try await device.run(command)
                #expect(result.status == 0, "\(command): \(result.stdout) \(result.stderr)")
                #expect(!result.stderr.contains("Retry-After"))
            }
            // Five processes, no new access token: each reused the one stored by the login.
            #expect(try await Self.requests(service, route: "/o/client/token") == tokensAfterLogin)
            let state = device.directory.appendingPathComponent("state")
            let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
            let tokenFile = try #require(files.first { $0.hasSuffix(".token") })
            let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(tokenFile).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            service.clock.advance(by: 1)
            let status = try await device.run(["status"])
            #expect(status.stdout.contains("Device id: "), "\(status.stderr)")
        }
    }

    @Test func throttledCommandsSayWhenTheyRetryAndNeverNameAHeader() async throws {
        try await LocalService.run(rateLimit: 1, burst: 3) { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            // A burst of 3 is spent by the first command or two; the service's buckets refill only on its own (manual)
            // clock, which the test advances once a process says it is waiting.
            var throttled: DeviceProcess.Result?
            for _ in 0..<4 where throttled == nil {
                let process = try device.start(["providers"])
                defer { process.stop() }
                var advanced = false
                while process.isRunning {
                    if !advanced, process.errorOutput.contains("throttled, retrying in") {
                        service.clock.advance(by: 10)
                        advanced = true
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let result = try await process.finish(timeout: DeviceProcess.patience)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("DemoCable"))
                #expect(!result.stderr.contains("Retry-After"))
                if advanced { throttled = result }
            }
            let result = try #require(throttled, "no command was throttled")
            #expect(result.stderr.contains("throttled, retrying in 1 s"), "\(result.stderr)")
        }
    }

    @Test func controlCCancelsTheCodeOnTheService() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            let login = try device.start(["login"])
            defer { login.stop() }
            let line = try await login.waitForOutput(containing: "Activation URL:", timeout: DeviceProcess.patience)
            let url = try #require(line.split(separator: " ").last.map(String.init))
            login.interrupt()
            let result = try await login.finish(timeout: 30)
            #expect(result.status == 130)
            let browser = service.browser()
            guard case .page(let entry) = try await browser.get(url) else { throw BrowserError("no activation page") }
            let form = try #require(entry.forms.first { $0["code"] != nil })
            guard case .page(let cancelled) = try await browser.submit(form, from: entry) else { throw BrowserError("no page") }
            #expect(cancelled.status == 410)
            #expect(cancelled.body.contains("This code was cancelled"))
            #expect(!cancelled.body.contains("Choose your TV provider"))
        }
    }

    @Test func noServiceIsAClearMessage() async throws {
        let port = try freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-noservice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let statement = directory.appendingPathComponent("statement.jwt")
        try "eyJhbGciOiJub25lIn0.e30.".write(to: statement, atomically: true, encoding: .utf8)
        let result = try await Self.entitle(
            ["device", "status", "--software-statement", statement.path, "--state-dir", directory.appendingPathComponent("s").path],
            environment: ["ENTITLE_URL": "http://127.0.0.1:\(port)"], directory: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("cannot reach the Entitle service at http://127.0.0.1:\(port) — is `entitle serve` running?"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSURLErrorDomain"))
        #expect(result.stderr.contains("(connection refused)"), "\(result.stderr)")
        let verify = try await Self.entitle(["verify", "--resource", "news", "token"], environment: ["ENTITLE_URL": "http://127.0.0.1:\(port)"])
        #expect(verify.status == 2)
        #expect(verify.stderr.contains("cannot load keys from http://127.0.0.1:\(port)/keys/media-token"), "\(verify.stderr)")
        #expect(verify.stderr.contains("is `entitle serve` running there?"))
    }

    @Test func aServiceThatDoesNotAnswerIsATimeoutNamedWithItsRemedy() async throws {
        // A socket that listens and never accepts: connections complete, no answer ever comes.
        let listener = try SilentListener()
        defer { withExtendedLifetime(listener) {} }
        let server = listener.url
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-silent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let statement = directory.appendingPathComponent("statement.jwt")
        try "eyJhbGciOiJub25lIn0.e30.".write(to: statement, atomically: true, encoding: .utf8)
        let common = ["--software-statement", statement.path, "--state-dir", directory.appendingPathComponent("s").path]

        let started = Date()
        let result = try await Self.entitle(
            ["device", "status", "--timeout", "1.5"] + common, environment: ["ENTITLE_URL": server], directory: directory)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the Entitle service at \(server) did not answer within 1.5 s (pass --timeout or set ENTITLE_TIMEOUT to wait longer)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("is `entitle serve` running") && !result.stderr.contains("NSURLErrorDomain"))
        #expect(Date().timeIntervalSince(started) < DeviceProcess.patience)

        // ENTITLE_TIMEOUT is the default of --timeout; with --json the reason is in the object.
        let json = try await Self.entitle(
            ["device", "status", "--json"] + common, environment: ["ENTITLE_URL": server, "ENTITLE_TIMEOUT": "1"], directory: directory)
        #expect(json.status == 1)
        #expect(json.stdout.contains("did not answer within 1 s"), "\(json.stdout)")
        #expect(json.stdout.contains("\"error\":\"network\""))

        let refused = try await Self.entitle(
            ["device", "status", "--timeout", "0"] + common, environment: ["ENTITLE_URL": server], directory: directory)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--timeout (or ENTITLE_TIMEOUT) must be a positive number of seconds."), "\(refused.stderr)")
    }

    @Test func environmentNamesTheServiceForDeviceAndVerify() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            #expect(try await Self.loginSkippingThePicker(device, service: service).status == 0)
            // No --server: ENTITLE_URL names the service.
            let withoutServer = Array(device.arguments.dropFirst(2))
            let process = try DeviceProcess(
                binary: try DeviceCommandTests.binary(), arguments: ["device", "authorize", "news", "--json"] + withoutServer,
                directory: device.directory, environment: ["ENTITLE_URL": service.baseURL])
            defer { process.stop() }
            let authorized = try await process.finish(timeout: DeviceProcess.patience)
            #expect(authorized.status == 0, "\(authorized.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(authorized.stdout.utf8)) as? [String: Any])
            let token = try #require(object["mediaToken"] as? String)
            // `verify` derives its keys URL from ENTITLE_URL.
            let verified = try await Self.entitle(["verify", "--resource", "news", token], environment: ["ENTITLE_URL": service.baseURL])
            #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
            #expect(verified.stdout.contains("valid"))
        }
    }

    @Test func adminSaysWhatIsWrongInPlainWords() async throws {
        try await LocalService.run { service in
            let data = ["ENTITLE_DATA_DIR": service.dataDirectory]
            // A directory that holds no service: said so, exit 1, and nothing created.
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-empty-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: empty) }
            let nothing = try await Self.entitle(["admin", "mvpd", "list"], directory: empty)
            #expect(nothing.status == 1)
            #expect(nothing.stderr.contains("no Entitle service data in"), "\(nothing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: empty.appendingPathComponent(".entitle").path))

            // ENTITLE_DATA_DIR names the service's data directory.
            let mvpds = try await Self.entitle(["admin", "mvpd", "list"], environment: data)
            #expect(mvpds.status == 0 && mvpds.stdout.contains("DemoCable"), "\(mvpds.stderr)")
            let statements = try await Self.entitle(["admin", "software-statement", "list"], environment: data)
            #expect(statements.status == 0 && statements.stdout.contains("REF\tactive"), "\(statements.stdout) \(statements.stderr)")
            _ = try await service.client()
            let clients = try await Self.entitle(["admin", "client", "list"], environment: data)
            #expect(clients.status == 0 && clients.stdout.contains("\tREF\tactive\t"), "\(clients.stdout) \(clients.stderr)")

            // Not found: a plain message and exit 1, not a usage block and 64.
            for arguments in [
                ["admin", "client", "revoke", "nope"], ["admin", "software-statement", "revoke", "nope"],
                ["admin", "degradation", "remove", "--requestor", "REF", "--mvpd", "DemoCable", "--rule", "authn-all"],
            ] {
                let missing = try await Self.entitle(arguments, environment: data)
                #expect(missing.status == 1, "\(arguments): \(missing.status)")
                #expect(missing.stderr.hasPrefix("entitle admin: no "), "\(missing.stderr)")
                #expect(!missing.stderr.contains("USAGE"))
            }
            let noFile = try await Self.entitle(
                ["admin", "mvpd", "add", "--id", "X", "--name", "X", "--saml-metadata", "idp-metadata.xml"], environment: data)
            #expect(noFile.status == 1)
            #expect(noFile.stderr.contains("/demo-mvpd/DemoCable/saml/metadata"))

            let rotate = try await Self.entitle(["admin", "keys", "rotate"], environment: data)
            #expect(rotate.status == 0, "\(rotate.stderr)")
            #expect(rotate.stdout.contains("/keys/media-token publishes"))

            // Help: no --public-url on admin commands; where a device id comes from.
            let help = try await Self.entitle(["admin", "temppass", "reset", "--help"])
            #expect(!help.stdout.contains("--public-url"))
            #expect(help.stdout.contains("entitle device status"))
            let addHelp = try await Self.entitle(["admin", "mvpd", "add", "--help"])
            #expect(addHelp.stdout.contains("saml/metadata"))
            #expect(try await Self.entitle(["serve", "--help"]).stdout.contains("--public-url"))
        }
    }

    @Test func serveSaysWhatToDoNextAndTheBaseURLIsALandingPage() async throws {
        let port = try freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data").path
        let serve = try DeviceProcess(
            binary: try DeviceCommandTests.binary(), arguments: ["serve", "--port", String(port), "--log-level", "warning"],
            directory: directory, environment: ["ENTITLE_DATA_DIR": data])
        defer { serve.stop() }
        _ = try await serve.waitForOutput(containing: "Press Ctrl-C to stop.", timeout: 120)
        let base = "http://127.0.0.1:\(port)"
        #expect(serve.output.contains("export ENTITLE_URL=\(base)"))
        #expect(serve.output.contains("export ENTITLE_DATA_DIR=\(data)"))
        #expect(serve.output.contains("entitle device login"))
        #expect(serve.output.contains("\(base)/activate"))
        #expect(FileManager.default.fileExists(atPath: data + "/entitle.sqlite"))

        let (body, response) = try await URLSession.shared.data(from: URL(string: base + "/")!)
        let page = String(decoding: body, as: UTF8.self)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(page.contains("Entitle is running here"))
        #expect(page.contains("href=\"/activate\"") && page.contains("href=\"/openapi.json\"") && page.contains("docs/"))

        // The other commands find the same service through the environment.
        let statements = try await Self.entitle(["admin", "software-statement", "list"], environment: ["ENTITLE_DATA_DIR": data])
        #expect(statements.status == 0 && statements.stdout.contains("Reference TV"), "\(statements.stderr)")
    }
}
