import ChildProcess
import EntitleCore
@testable import EntitleDomain
import Foundation
import Testing

/// ``RedirectURL`` against a WHATWG URL parser that is not ours (ada-url, the parser of Node.js, from PyPI): every
/// target it accepts must be read by a browser's rules as the same URL — the same host, and the serialization it
/// redirects to unchanged — and every hostile variant of the redirect tests must be one it refuses.
@Suite(.serialized) struct RedirectURLWHATWGTests {
    /// Targets an app or a tool may send: each accepted one is compared with the WHATWG parser's reading.
    static let legitimate = [
        RedirectTargetTests.written, "https://ios.app", "http://127.0.0.1:8080/authenticated", "https://www.ios.app/a/ü?q=é&r=\"x\"#frag`",
        "https://ios.app/%2F..%2F/", "https://sub.ios.app:8443/p?a=%00", "http://10.0.0.1/",
        "https://ios.app/path;x=1?y=<z>#w",
    ]

    /// The WHATWG parser's `href` and `host` of each input (nil for a failure), read by one python run.
    static func whatwg(_ inputs: [String]) async throws -> [(href: String, host: String)?] {
        let python = try await Self.python()
        let folder = NSTemporaryDirectory() + "entitle-whatwg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try JSONSerialization.data(withJSONObject: inputs).write(to: URL(fileURLWithPath: folder + "/in.json"))
        let script = """
            import json, sys, ada_url
            out = []
            for text in json.load(open(sys.argv[1])):
                try:
                    url = ada_url.URL(text)
                    out.append([url.href, url.host])
                except Exception:
                    out.append(None)
            json.dump(out, open(sys.argv[2], "w"))
            """
        let process = try ChildProcess(executable: python, arguments: ["-c", script, folder + "/in.json", folder + "/out.json"])
        #expect(try await process.wait() == 0)
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out.json"))) as? [Any])
        return answers.map { ($0 as? [String]).map { (href: $0[0], host: $0[1]) } }
    }

    /// The venv's python (`Tests/Support/whatwg-url/venv.sh`).
    static func python() async throws -> String {
        let output = NSTemporaryDirectory() + "entitle-whatwg-venv-" + UUID().uuidString
        FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["bash", OAuth2Provider.root + "/Tests/Support/whatwg-url/venv.sh"], standardOutput: output)
        let status = try await process.wait()
        let path = (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard status == 0, !path.isEmpty else {
            throw ProviderError("Tests/Support/whatwg-url/venv.sh failed (python3 -m venv, pip install ada-url)")
        }
        return path
    }

    @Test(.enabled(if: OAuth2Provider.available)) func everyAcceptedTargetIsTheURLABrowserReads() async throws {
        let inputs = Self.legitimate + RedirectTargetTests.hostile
        let readings = try await Self.whatwg(inputs)
        let accepted = zip(inputs, readings).compactMap { input, reading in RedirectURL(input).map { (input, $0, reading) } }
        for (input, ours, reading) in accepted {
            let browser = try #require(reading, "\(input.debugDescription): accepted by us, refused by WHATWG")
            #expect(browser.host == ours.host + (ours.port.map { ":\($0)" } ?? ""), "\(input.debugDescription)")
            #expect(browser.href == ours.description, "\(input.debugDescription): WHATWG reads \(browser.href), we redirect to \(ours)")
        }
        #expect(accepted.map(\.0) == Self.legitimate, "every legitimate target is accepted, no hostile one")
        // What we redirect to, parsed again by WHATWG, is itself.
        let targets = accepted.map(\.1.description)
        let again = try await Self.whatwg(targets)
        #expect(again.map { $0?.href } == targets)
        for hostile in RedirectTargetTests.hostile {
            #expect(RedirectURIPolicy.domainTarget(hostile, domains: ["ios.app"]) == nil, "\(hostile.debugDescription)")
        }
    }
}
