import ChildProcess
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import MediaTokenVerifier
import Testing
#if canImport(Glibc)
import Glibc
import EntitleClients
import EntitleTesting
#endif

/// `entitle device` as a person uses it: the built binary runs as a subprocess against a real in-process service,
/// and a browser client completes the activation at the URL the device prints.
@Suite(.serialized) struct DeviceCommandTests {
    /// The package root.
    static let packageRoot = PackageRoot.url

    /// The `entitle` binary (``EntitleBinary``).
    static func binary() throws -> URL { URL(fileURLWithPath: try EntitleBinary.path()) }

    /// A device: a state directory and the options pointing at `service`.
    struct DeviceBox {
        let directory: URL
        let arguments: [String]

        init(service: LocalService) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-device-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let statement = directory.appendingPathComponent("software-statement.jwt")
            try service.softwareStatement.write(to: statement, atomically: true, encoding: .utf8)
            arguments = [
                "--server", service.baseURL, "--software-statement", statement.path,
                "--state-dir", directory.appendingPathComponent("state").path,
            ]
        }

        /// Starts `entitle device <command> …`; options in `command` come last, so they override the defaults.
        func start(_ command: [String]) throws -> DeviceProcess {
            try DeviceProcess(
                binary: try DeviceCommandTests.binary(),
                arguments: ["device", command[0]] + arguments + command.dropFirst(), directory: directory)
        }

        /// Runs a command to completion.
        func run(_ command: [String]) async throws -> DeviceProcess.Result {
            let process = try start(command)
            defer { process.stop() }
            return try await process.finish(timeout: DeviceProcess.patience)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// Signs the device in as `user`: `login` in the background, the activation page in a browser.
    func login(_ device: DeviceBox, service: LocalService, user: String) async throws -> DeviceProcess.Result {
        let login = try device.start(["login"])
        defer { login.stop() }
        let line = try await login.waitForOutput(containing: "Activation URL:", timeout: DeviceProcess.patience)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        #expect(url.hasPrefix(service.baseURL + "/activate?code="))
        #expect(login.output.contains("\u{2588}"))  // the QR code

        let browser = service.browser()
        guard case .page(let entry) = try await browser.get(url) else { throw BrowserError("no activation page") }
        let form = try #require(entry.forms.first { $0["code"] != nil })
        #expect(form["code"] == String(url.split(separator: "=").last!))
        guard case .page(let picker) = try await browser.submit(form, from: entry) else { throw BrowserError("no provider picker") }
        let cable = try #require(picker.forms.first { $0["mvpd"] == "DemoCable" })
        guard case .page(let loginPage) = try await browser.followingAutoPost(try await browser.submit(cable, from: picker)) else {
            throw BrowserError("no MVPD login")
        }
        var credentials = try #require(loginPage.forms.first { $0["password"] != nil })
        credentials.set("username", user)
        credentials.set("password", user + "-pass")
        guard case .page(let post) = try await browser.submit(credentials, from: loginPage) else { throw BrowserError("no SAML post") }
        let saml = try #require(post.forms.first { $0["SAMLResponse"] != nil })
        guard case .page(let done) = try await browser.submit(saml, from: post) else { throw BrowserError("no success page") }
        #expect(done.body.contains("You are signed in"))
        return try await login.finish(timeout: DeviceProcess.patience)
    }

    @Test func aliceSignsInWithACodeAuthorizesAndSignsOut() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }

            let before = try await device.run(["status", "--json"])
            #expect(before.status == 2)
            #expect(before.stdout.contains("\"error\":\"not_authenticated\""))

            let signedIn = try await login(device, service: service, user: "alice")
            #expect(signedIn.status == 0, "\(signedIn.stderr)")
            #expect(signedIn.stdout.contains("Signed in with Demo Cable"))
            #expect(signedIn.stdout.contains("Registration code:"))

            // The sign-in is remembered by the next process, and the state is private.
            let status = try await device.run(["status"])
            #expect(status.status == 0)
            #expect(status.stdout.contains("Signed in with Demo Cable (DemoCable)"))
            let attributes = try FileManager.default.attributesOfItem(atPath: device.directory.appendingPathComponent("state").path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)

            let authorized = try await device.run(["authorize", "news", "--json"])
            #expect(authorized.status == 0, "\(authorized.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(authorized.stdout.utf8)) as? [String: Any])
            let verification = try #require(object["verification"] as? [String: Any])
            #expect(verification["valid"] as? Bool == true)
            #expect(verification["mvpdID"] as? String == "DemoCable")
            // The token verifies independently, with the keys the service publishes.
            let token = try #require(object["mediaToken"] as? String)
            let pem = try await URLSessionKeyBundleFetcher().fetchKeyBundle(from: URL(string: service.baseURL + "/keys/media-token")!)
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: String(decoding: pem, as: UTF8.self)))
            let result = await verifier.verify(token, requestor: "REF", resource: "news", now: service.clock.now())
            #expect(result.isValid)
            #expect(result.resourceID == "news")

            let text = try await device.run(["authorize", "sports"])
            #expect(text.status == 0)
            #expect(text.stdout.contains("Verification: valid"))

            let preauthorized = try await device.run(["preauthorize", "news", "movies", "--json"])
            #expect(preauthorized.status == 0)
            #expect(preauthorized.stdout.contains("\"authorized\":[\"news\",\"movies\"]"))

            let zip = try await device.run(["metadata", "zip"])
            #expect(zip.status == 0, "\(zip.stderr)")
            #expect(zip.stdout.contains("encrypted"))
            #expect(!zip.stdout.contains("10001"))
            let key = service.dataDirectory + "/demo/programmer-key.pem"
            let decrypted = try await device.run(["metadata", "zip", "--programmer-key", key, "--json"])
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            #expect(decrypted.stdout.contains("\"decrypted\":\"10001\"") || decrypted.stdout.contains("\"decrypted\":10001"))

            let providers = try await device.run(["providers"])
            #expect(providers.status == 0)
            #expect(providers.stdout.contains("DemoCable") && providers.stdout.contains("Demo Fiber") && providers.stdout.contains("temppass"))

            let logout = try await device.run(["logout"])
            #expect(logout.status == 0, "\(logout.stderr)")
            #expect(logout.stdout.contains("Signed out of Demo Cable"))
            let after = try await device.run(["status"])
            #expect(after.status == 2)
            #expect(after.stdout.contains("Not signed in"))
            let denied = try await device.run(["authorize", "news"])
            #expect(denied.status == 2)
        }
    }

    @Test func bobIsDeniedMoviesWithTheMVPDsMessage() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            let signedIn = try await login(device, service: service, user: "bob")
            #expect(signedIn.status == 0, "\(signedIn.stderr)")

            let movies = try await device.run(["authorize", "movies"])
            #expect(movies.status == 3)
            #expect(movies.stdout.contains("Not authorized:") && movies.stdout.contains("Demo Cable"))
            let json = try await device.run(["authorize", "movies", "--json"])
            #expect(json.status == 3)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["error"] as? String == "not_authorized")
            #expect((object["details"] as? String)?.contains("Demo Cable") == true)
            #expect(try await device.run(["authorize", "news"]).status == 0)
        }
    }

    @Test func controlCCancelsTheLoginAndExits130() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            let login = try device.start(["login", "--mvpd", "DemoCable"])
            defer { login.stop() }
            _ = try await login.waitForOutput(containing: "Registration code:", timeout: DeviceProcess.patience)
            login.interrupt()
            let result = try await login.finish(timeout: 30)
            #expect(result.status == 130)
            #expect(result.stderr.contains("Cancelled"))
            #expect(try await device.run(["status"]).status == 2)
        }
    }

    @Test func errorsExitWithOne() async throws {
        try await LocalService.run { service in
            let device = try DeviceBox(service: service)
            defer { device.remove() }
            let missing = try await device.run(["status", "--software-statement", "/nonexistent/statement.jwt"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("software statement"))
            let unknown = try await device.run(["status", "--requestor", "NOPE", "--json"])
            #expect(unknown.status == 1)
            #expect(unknown.stdout.contains("\"ok\":false"))
        }
    }
}

/// A running `entitle` process; standard output and error go to files so that nothing blocks on a full pipe. Started
/// with `posix_spawn` (``ChildProcess``), not Foundation's `Process`, which crashes under load on Linux.
final class DeviceProcess {
    /// How a process ended.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private let process: ChildProcess
    private let stdoutURL: URL
    private let stderrURL: URL

    /// How long a test waits for a process to print or exit, seconds. Generous: on a 2-core machine running every suite
    /// at once, the in-process service can take tens of seconds to answer; a process that hangs still fails the test.
    static let patience: Double = 150
    /// The wait for each answer of the service that `entitle device` is given (`ENTITLE_TIMEOUT`) unless a test sets
    /// its own: its 30 s default is for people, and a loaded test machine can exceed it without anything being wrong.
    static let requestTimeout = String(Int(AnswerPatience.seconds))

    /// Starts `binary`; `environment` adds to (or overrides) this process's environment.
    /// `standardInput` is written to a file the process reads (none: `/dev/null`).
    init(binary: URL, arguments: [String], directory: URL, environment: [String: String] = [:], standardInput: String? = nil) throws {
        let id = UUID().uuidString
        stdoutURL = directory.appendingPathComponent("stdout-\(id)")
        stderrURL = directory.appendingPathComponent("stderr-\(id)")
        var inputPath: String?
        if let standardInput {
            let inputURL = directory.appendingPathComponent("stdin-\(id)")
            try Data(standardInput.utf8).write(to: inputURL)
            inputPath = inputURL.path
        }
        process = try ChildProcess(
            executable: binary.path, arguments: arguments, directory: directory.path,
            environment: ProcessInfo.processInfo.environment.merging(["ENTITLE_TIMEOUT": Self.requestTimeout]) { own, _ in own }
                .merging(environment) { $1 },
            standardInput: inputPath, standardOutput: stdoutURL.path, standardError: stderrURL.path)
    }

    /// Whether the process is still running.
    var isRunning: Bool { process.isRunning }

    /// What the process has written to standard output so far.
    var output: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    /// What the process has written to standard error so far.
    var errorOutput: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for a line of standard output containing `text`.
    func waitForOutput(containing text: String, timeout: Double) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = output.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BrowserError("no output containing \(text); stdout: \(output) stderr: \(errorOutput)")
    }

    /// Waits for the process to exit.
    func finish(timeout: Double) async throws -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                stop()
                throw BrowserError("process did not exit; stdout: \(output) stderr: \(errorOutput)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return Result(status: process.waitUntilExit(), stdout: output, stderr: errorOutput)
    }

    /// Sends SIGINT (Ctrl-C).
    func interrupt() { process.send(SIGINT) }

    /// Kills the process if it is still running.
    func stop() { process.terminate() }
}
