import ChildProcess
import EntitleCore
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// yt-dlp's own Adobe Pass client (PyPI `yt-dlp==2026.10.26`, in the venv `Tests/Support/yt-dlp/venv.sh` makes under `.build/`),
/// unchanged but for the host (`Tests/Support/yt-dlp/driver.py`), resumes from the cache of a first run the test
/// did and gets a media token without registering again (issue 39 point 4). Needs python3 with venv and PyPI: skipped
/// locally without them, run (and failing without them) when `CI=true`.
@Suite(.serialized) struct YtDlpResumedRunTests {
    /// The venv's python.
    static func python() async throws -> String {
        let output = NSTemporaryDirectory() + "entitle-ytdlp-venv-" + UUID().uuidString
        FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["bash", OAuth2Provider.root + "/Tests/Support/yt-dlp/venv.sh"], standardOutput: output)
        let status = try await process.wait()
        let path = (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard status == 0, !path.isEmpty else { throw ProviderError("Tests/Support/yt-dlp/venv.sh failed (python3 -m venv, pip install yt-dlp)") }
        return path
    }

    /// What the driver printed: the requests yt-dlp made and the media token it returned (or why it failed).
    struct Outcome {
        var requests: [String] = []
        var mediaToken: String?
        var output = ""
    }

    /// Runs yt-dlp's `_extract_mvpd_auth` for `resource` with a cache holding `authn` (and `authz` when given).
    static func resume(_ host: LocalService, resource: String, authn: String, authz: String?) async throws -> Outcome {
        let python = try await Self.python()
        let folder = NSTemporaryDirectory() + "entitle-ytdlp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var tokens = ["authn_token": authn]
        if let authz { tokens["authz_token"] = authz }
        try JSONSerialization.data(withJSONObject: tokens).write(to: URL(fileURLWithPath: folder + "/tokens.json"))
        let process = try ChildProcess(
            executable: python,
            arguments: [
                OAuth2Provider.root + "/Tests/Support/yt-dlp/driver.py", host.baseURL, "REF", resource, folder + "/tokens.json", folder + "/cache",
            ],
            standardOutput: folder + "/out.txt", standardError: folder + "/err.txt")
        let status = try await process.wait()
        var outcome = Outcome()
        let out = (try? String(contentsOfFile: folder + "/out.txt", encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: folder + "/err.txt", encoding: .utf8)) ?? ""
        outcome.output = "status \(status)\n" + out + err
        for line in err.split(separator: "\n") where line.hasPrefix("REQUEST ") { outcome.requests.append(String(line.dropFirst(8))) }
        for line in out.split(separator: "\n") where line.hasPrefix("MEDIA_TOKEN ") { outcome.mediaToken = String(line.dropFirst(12)) }
        return outcome
    }

    @Test(.enabled(if: OAuth2Provider.available)) func ytDlpsSecondRunGetsAMediaTokenWithoutRegisteringAgain() async throws {
        try await LocalService.run { host in
            let run = try await AdobeServicesResumedRunTests.firstRun(host)
            let pem = try await run.rest.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))

            // Both tokens cached: shortAuthorize only, with no Authorization header.
            let short = try await Self.resume(host, resource: "news", authn: run.authn, authz: run.authz)
            #expect(short.requests == ["POST /adobe-services/shortAuthorize authorization=absent"], "\(short.output)")
            let token = try #require(short.mediaToken, "\(short.output)")
            #expect(await verifier.verify(token, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)

            // Only the AuthN token cached (the AuthZ token expired): authorize, then shortAuthorize.
            let full = try await Self.resume(host, resource: "sports", authn: run.authn, authz: nil)
            #expect(
                full.requests == ["POST /adobe-services/authorize authorization=absent", "POST /adobe-services/shortAuthorize authorization=absent"],
                "\(full.output)")
            let sports = try #require(full.mediaToken, "\(full.output)")
            #expect(await verifier.verify(sports, requestor: "REF", resource: "sports", now: host.clock.now()).status == .valid)
        }
    }
}
