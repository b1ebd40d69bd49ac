import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin report`, run as the real binary on the storage a service left behind: the figures the service
/// counted were written at its shutdown (no report was asked while it ran), and the command prints them as CSV or JSON.
@Suite struct ReportCommandTests {
    @Test func theFiguresCountedUntilShutdownArePrintedByTheCommand() async throws {
        guard (ProcessInfo.processInfo.environment["ENTITLE_TEST_DATABASE_URL"] ?? "").isEmpty else { return }
        let directory = NSTemporaryDirectory() + "entitle-report-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ManualClock()
        try await LocalService.run(clock: clock, dataDirectory: directory) { local in
            var alice = try await local.client()
            alice.deviceInfo = DeviceInfo(primaryHardwareType: "TV", osName: "tvOS")
            guard case .external = try await local.signIn(alice, user: "alice").outcome else { throw BrowserError("not signed in") }
            #expect(try await alice.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).status == 200)
            // The second play from an app that names its application profile and visitor.
            let play = try await alice.send(
                .POST, "/api/v2/REF/decisions/authorize/DemoCable", json: JSONEncoder().encode(DecisionsRequest(resources: ["sports"])),
                headers: [("AP-Application-Profile", "tv-app"), ("AP-Visitor-Identifier", "ecid-1")])
            #expect(play.status == 200, "\(play.text)")
        }
        let range = [
            "--start", clock.now().addingTimeInterval(-3600).ISO8601Format(), "--end", clock.now().addingTimeInterval(3600).ISO8601Format(),
        ]
        let csv = try await UpgradeTests.entitle(
            ["admin", "report", "platform", "mvpd", "--data-dir", directory, "--granularity", "total"] + range)
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.first?.hasPrefix("platform,mvpd,authnAttempts,authnSuccesses,") == true, "\(csv.stdout)")
        #expect(lines.dropFirst().first?.hasPrefix("tvOS,DemoCable,1,1,0,2,2,0,0,2,") == true, "\(csv.stdout)")

        let json = try await UpgradeTests.entitle(["admin", "report", "--data-dir", directory, "--format", "json"] + range)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.reduce(0) { $0 + (($1["mediaTokens"] as? NSNumber)?.intValue ?? 0) } == 2, "\(json.stdout)")

        // By application profile, only tv-app: its one play, one account and one visitor.
        let byProfile = try await UpgradeTests.entitle(
            ["admin", "report", "profile", "--profile", "tv-app", "--data-dir", directory, "--granularity", "total"] + range)
        #expect(byProfile.status == 0, "\(byProfile.stderr)")
        let profileLines = byProfile.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(profileLines.first?.hasSuffix(",uniqueAccounts,uniqueVisitors") == true, "\(byProfile.stdout)")
        #expect(profileLines.count == 2 && profileLines.last?.hasPrefix("tv-app,0,0,0,1,1,0,0,1,") == true, "\(byProfile.stdout)")
        #expect(profileLines.last?.hasSuffix(",1,1") == true, "\(byProfile.stdout)")

        let bad = try await UpgradeTests.entitle(["admin", "report", "channel", "--data-dir", directory])
        #expect(bad.status == 1 && bad.stderr.contains("Unknown report dimension"), "\(bad.stderr)")
    }
}
