import ChildProcess
import AsyncHTTPClient
import EntitleTesting
import Foundation
import NIOCore
import Synchronization

/// The OAuth 2.0 / OpenID provider of the OAuth 2.0 MVPD tests: `Tests/Support/oauth2-provider/oauth2_provider.py`, Authlib's authorization
/// server on Flask (PyPI), run with the venv `Tests/Support/oauth2-provider/venv.sh` makes under `.build/`, on a free loopback
/// port, and stopped when the test's body returns.
struct OAuth2Provider: Sendable {
    /// Its base URL (also its OpenID issuer).
    let baseURL: String
    /// Entitle's client id there.
    let clientID: String
    /// Entitle's client secret there.
    let clientSecret: String

    /// The repository's root.
    static let root = PackageRoot.path

    /// Whether python3 with venv is on this machine (CI must have it: there the tests run regardless and fail without it).
    static let available: Bool = {
        if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
        guard let process = try? ChildProcess(executable: "/usr/bin/env", arguments: ["python3", "-c", "import venv, ensurepip"]) else {
            return false
        }
        return process.waitUntilExit() == 0
    }()

    /// The venv's python, made on first use (`pip install authlib flask`) by one shared task.
    static func python() async throws -> String {
        let task = pythonTask.withLock { task in
            if let task { return task }
            let made = Task<String, any Error> {
                let output = NSTemporaryDirectory() + "entitle-oauth2-venv-" + UUID().uuidString
                FileManager.default.createFile(atPath: output, contents: nil)
                defer { try? FileManager.default.removeItem(atPath: output) }
                let process = try ChildProcess(
                    executable: "/usr/bin/env", arguments: ["bash", root + "/Tests/Support/oauth2-provider/venv.sh"], standardOutput: output)
                // Never block a thread of the cooperative pool: every test's service runs on it.
                let status = try await process.wait()
                let path = (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                guard status == 0, !path.isEmpty else {
                    throw ProviderError("Tests/Support/oauth2-provider/venv.sh failed (python3 -m venv, pip install authlib flask)")
                }
                return path
            }
            task = made
            return made
        }
        return try await task.value
    }

    private static let pythonTask = Mutex<Task<String, any Error>?>(nil)

    /// Starts the provider for a client whose redirect URIs are `redirectURI` and `logoutRedirectURI`, runs `body`,
    /// stops the provider whatever `body` does.
    static func run(
        redirectURI: String, logoutRedirectURI: String, clientID: String = "entitle-test",
        _ body: (OAuth2Provider) async throws -> Void
    ) async throws {
        let python = try await Self.python()
        let folder = NSTemporaryDirectory() + "entitle-oauth2-provider-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stdout = folder + "/stdout", stderr = folder + "/stderr"
        FileManager.default.createFile(atPath: stdout, contents: nil)
        FileManager.default.createFile(atPath: stderr, contents: nil)
        let secret = "secret-" + UUID().uuidString
        let process = try ChildProcess(
            executable: python,
            arguments: [
                root + "/Tests/Support/oauth2-provider/oauth2_provider.py", "--client-id", clientID, "--client-secret", secret,
                "--redirect-uri", redirectURI, "--logout-redirect-uri", logoutRedirectURI,
            ],
            standardOutput: stdout, standardError: stderr)
        do {
            var port: Int?
            for _ in 0..<300 {
                let text = (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? ""
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("LISTENING ") }) {
                    port = Int(line.dropFirst("LISTENING ".count))
                    break
                }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            guard let port else {
                throw ProviderError("the OAuth 2.0 provider did not start: \((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")")
            }
            try await body(OAuth2Provider(baseURL: "http://127.0.0.1:\(port)", clientID: clientID, clientSecret: secret))
        } catch {
            await stop(process)
            throw error
        }
        await stop(process)
    }

    /// Stops the provider: SIGTERM, then SIGKILL if it is still there after 5 s; waits without blocking a thread.
    static func stop(_ process: ChildProcess) async {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        for step in 0..<100 {
            guard process.isRunning else { return }
            if step == 50 { process.send(SIGKILL) }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Makes the token endpoint misbehave: `fail` (HTTP 503), `slow` (8 s), `malformed` (broken JSON) or `normal`.
    func setTokenEndpoint(_ mode: String, httpClient: HTTPClient) async throws {
        var request = HTTPClientRequest(url: baseURL + "/control/token-endpoint")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "mode=" + mode))
        _ = try await httpClient.execute(request, timeout: AnswerPatience.timeAmount)
    }

    /// How many authorization codes and refresh tokens the provider exchanged.
    func counts(httpClient: HTTPClient) async throws -> [String: Int] {
        let response = try await httpClient.execute(HTTPClientRequest(url: baseURL + "/control/counts"), timeout: AnswerPatience.timeAmount)
        return try JSONDecoder().decode([String: Int].self, from: Data(buffer: try await response.body.collect(upTo: 4096)))
    }

    /// Ends every grant of `user` at the provider (the subscriber revoked the app, or the account closed).
    func revokeGrants(of user: String, httpClient: HTTPClient) async throws {
        var request = HTTPClientRequest(url: baseURL + "/control/revoke-user")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "user=" + user))
        let response = try await httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        guard response.status == .ok else { throw ProviderError("revocation failed: HTTP \(response.status.code)") }
    }

    /// Every refresh token the provider issued.
    func refreshTokens(httpClient: HTTPClient) async throws -> [String] {
        let response = try await httpClient.execute(HTTPClientRequest(url: baseURL + "/control/refresh-tokens"), timeout: AnswerPatience.timeAmount)
        return try JSONDecoder().decode([String].self, from: Data(buffer: try await response.body.collect(upTo: 65536)))
    }
}

/// A failure of the test provider's setup.
struct ProviderError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
