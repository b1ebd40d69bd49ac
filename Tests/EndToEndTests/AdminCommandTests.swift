import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// The operator's `entitle admin` commands, run as the real binary on the storage of a running service, and their
/// effect on an app using the SDK.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AdminCommandTests {
    /// SHA-256("fan@example.com"), computed with sha256sum: what the app passes as `withData` for that address (Adobe's
    /// guidance: the app hashes the identity; the SDK sends it as given).
    static let fanDigest = "90fb42525afe02cbd2224ed6b3ae00fa178bb556ea86996415a257667bd87b60"

    static func admin(_ service: LocalService, _ arguments: [String], input: String? = nil) async throws -> DeviceProcess.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(),
            arguments: ["admin"] + arguments + ["--data-dir", service.dataDirectory], directory: directory, standardInput: input)
        defer { process.stop() }
        return try await process.finish(timeout: DeviceProcess.patience)
    }

    @Test func anOperatorDegradesAnMVPDAndViewersKeepWatching() async throws {
        try await LocalService.run { service in
            let start = service.clock.now().addingTimeInterval(-60).ISO8601Format()
            let set = try await Self.admin(
                service, ["degradation", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--rule", "authn-all", "--start", start])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains("authn-all for REF/DemoCable"))
            let list = try await Self.admin(service, ["degradation", "list"])
            #expect(list.stdout.contains("REF\tDemoCable\tauthn-all"))

            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            #expect(try await app.enabler.authenticate(mvpd: "DemoCable") == "DemoCable")
            #expect(!app.log.contains("navigate"))
            _ = try await app.waitFor("status(N010)")

            #expect(
                try await Self.admin(service, ["degradation", "remove", "--requestor", "REF", "--mvpd", "DemoCable", "--rule", "authn-all"]).status
                    == 0)
            #expect(try await Self.admin(service, ["degradation", "list"]).stdout.isEmpty)
            let bad = try await Self.admin(service, ["degradation", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--rule", "authz-some"])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("authz-some") || bad.stderr.lowercased().contains("rule"))
        }
    }

    @Test func marketingRunsAPromotionalFreePreviewAndResetsAnIdentity() async throws {
        try await LocalService.run { service in
            let add = try await Self.admin(
                service,
                [
                    "temppass", "add", "--requestor", "REF", "--id", "SpringPromo", "--name", "Spring preview",
                    "--minutes", "120", "--resources", "2",
                ])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(try await Self.admin(service, ["temppass", "add", "--requestor", "REF", "--id", "bad id", "--name", "x"]).status != 0)

            let app = TestApp(service: service)
            let mvpds = try await app.enabler.configure(requestorID: "REF")
            #expect(mvpds.contains { $0.ID == "SpringPromo" && $0.isTempPass })
            let flow = Task { try await app.enabler.authenticate(withData: ["email": Self.fanDigest]) }
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("SpringPromo")
            #expect(try await flow.value == "SpringPromo")
            #expect(try await app.enabler.authorize("news").isEmpty == false)
            #expect(try await app.enabler.authorize("sports").isEmpty == false)
            await #expect(throws: AccessEnablerError.self) { try await app.enabler.authorize("movies") }

            let identity = #"{"email":"\#(Self.fanDigest)"}"#
            let reset = try await Self.admin(service, ["temppass", "reset", "--requestor", "REF", "--mvpd", "SpringPromo", "--identity", identity])
            #expect(reset.stdout.contains("reset 1 pass(es)"), "\(reset.stdout) \(reset.stderr)")
            let again = Task { try await app.enabler.authenticate(forceAuthn: true, withData: ["email": Self.fanDigest]) }
            try await app.waitFor("displayProviderDialog", count: 2)
            app.enabler.setSelectedProvider("SpringPromo")
            #expect(try await again.value == "SpringPromo")
            #expect(try await app.enabler.authorize("movies").isEmpty == false)
        }
    }
}
