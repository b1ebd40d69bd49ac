import AsyncHTTPClient
import EntitleHost
import Foundation
import NIOCore
import Synchronization

/// A headless Chromium driven over the W3C WebDriver protocol (chromedriver over HTTP on loopback).
/// Chromium does not navigate to custom schemes such as `adobepass://ios.app`; the redirect is read from the DevTools
/// network events in the performance log.
final class WebDriver: Sendable {
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    let base: String
    let session: String
    let http: HTTPClient

    /// Paths of the Debian packages `chromium` and `chromium-driver`.
    static let chromium = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromedriver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the browser tests run: with a chromedriver to talk to, and always in CI (CI=true), where a missing
    /// browser is a failure, not a skip.
    static var enabled: Bool {
        !(ProcessInfo.processInfo.environment["CHROMEDRIVER_URL"] ?? "").isEmpty || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    private init(base: String, session: String, http: HTTPClient) {
        self.base = base
        self.session = session
        self.http = http
    }

    /// Starts chromedriver and a headless Chromium session.
    /// Creates a headless Chromium session on the chromedriver at `CHROMEDRIVER_URL`. `scripts/test.sh` starts chromedriver
    /// outside the test process: spawning it with Foundation's `Process` from inside the test process stopped the
    /// process's timers (every `Task.sleep` and HTTP timeout) on Linux.
    static func start(http: HTTPClient) async throws -> WebDriver {
        guard let chromium, chromedriver != nil else { throw BrowserError("chromium and chromium-driver are not installed") }
        guard let base = ProcessInfo.processInfo.environment["CHROMEDRIVER_URL"], !base.isEmpty else {
            throw BrowserError("CHROMEDRIVER_URL is not set: run the tests with scripts/test.sh, which starts chromedriver")
        }
        do {
            for attempt in 0..<100 {
                if let answer = try? await call(http, .GET, base + "/status"), answer["value"] != nil { break }
                if attempt == 99 { throw BrowserError("chromedriver does not answer at \(base)") }
                try await Task.sleep(for: .milliseconds(100))
            }
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        // An asynchronous script may make many calls to the service; with the whole suite on two cores
                        // they took more than chromedriver's default 30 s.
                        "timeouts": ["script": 180_000],
                        // Navigations to custom schemes never finish in Chromium: never wait for page loads, poll instead.
                        "pageLoadStrategy": "none",
                        "goog:chromeOptions": [
                            "binary": chromium,
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--window-size=430,900", "--no-first-run", "--disable-extensions",
                            ],
                        ],
                        "goog:loggingPrefs": ["performance": "ALL"],
                    ]
                ]
            ]
            let created = try await call(http, .POST, base + "/session", capabilities)
            guard let value = created["value"] as? [String: Any], let session = value["sessionId"] as? String else {
                throw BrowserError("no WebDriver session: \(created)")
            }
            return WebDriver(base: base, session: session, http: http)
        }
    }

    /// Ends the session (chromedriver closes its browser).
    func quit() async {
        _ = try? await Self.call(http, .DELETE, "\(base)/session/\(session)")
    }

    @discardableResult
    static func call(_ http: HTTPClient, _ method: NIOHTTP1.HTTPMethod, _ url: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = method
        // A fresh connection for every command: chromedriver closes idle keep-alive connections, and a command sent on
        // one it has just closed failed with "I/O on closed channel" (a console test in CI).
        request.headers.add(name: "Connection", value: "close")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }
        // Longer than the session's script timeout (180 s): an asynchronous script of many fetches, with the whole suite
        // on two cores, took more than 15 s, and the HTTP deadline must not end a command chromedriver would finish.
        let response = try await http.execute(request, timeout: .seconds(200))
        let data = Data(buffer: try await response.body.collect(upTo: 64 * 1024 * 1024))
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @discardableResult
    func command(_ method: NIOHTTP1.HTTPMethod, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        let answer = try await Self.call(http, method, "\(base)/session/\(session)\(path)", body)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw BrowserError("WebDriver \(path): \(error) \(value["message"] ?? "")")
        }
        return answer["value"]
    }

    func open(_ url: String) async throws { try await command(.POST, "/url", ["url": url]) }
    func currentURL() async throws -> String { try await command(.GET, "/url") as? String ?? "" }
    func source() async throws -> String { try await command(.GET, "/source") as? String ?? "" }

    /// Finds an element, waiting up to 20 s for it to appear (pages load asynchronously).
    func element(_ css: String) async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let answer = try await Self.call(http, .POST, "\(base)/session/\(session)/element", ["using": "css selector", "value": css])
            if let value = answer["value"] as? [String: Any], let id = value[Self.elementKey] as? String { return id }
            if Date() > deadline { throw BrowserError("no element \(css)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func type(_ css: String, _ text: String) async throws {
        let id = try await element(css)
        try await command(.POST, "/element/\(id)/clear", [:])
        try await command(.POST, "/element/\(id)/value", ["text": text])
    }

    func click(_ css: String) async throws {
        try await command(.POST, "/element/\(try await element(css))/click", [:])
    }

    /// Waits until the page source contains `text`.
    func waitForText(_ text: String, timeout: Double = 20) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await source().contains(text) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BrowserError("page never showed \(text); at \(try await currentURL())")
    }

    /// Waits for a request to a URL starting with `prefix` in the DevTools network events (custom-scheme redirects).
    func waitForRequest(prefix: String, timeout: Double = 20) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let entries = try await command(.POST, "/se/log", ["type": "performance"]) as? [[String: Any]] ?? []
            for entry in entries {
                guard let message = entry["message"] as? String, message.contains("Network.requestWillBeSent"),
                    let json = try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any],
                    let inner = json["message"] as? [String: Any], let params = inner["params"] as? [String: Any],
                    let request = params["request"] as? [String: Any], let url = request["url"] as? String,
                    url.hasPrefix(prefix)
                else { continue }
                return url
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BrowserError("no request to \(prefix)")
    }

    /// Saves a PNG screenshot of the page in `test-output/` (ignored by git).
    func screenshot(_ name: String) async {
        guard let base64 = try? await command(.GET, "/screenshot") as? String, let png = Data(base64Encoded: base64) else { return }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-output", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? png.write(to: folder.appendingPathComponent(name + ".png"))
    }
}

import NIOHTTP1
import EntitleClients
