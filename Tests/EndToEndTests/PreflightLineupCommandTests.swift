import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin integration set --preflight lineup|mvpd [--lineup-attribute NAME]` and `mvpd add --preflight`, run as
/// processes on a live service's storage: the change reaches the running service and the changes log; each bad input
/// is a plain message and a failing exit.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PreflightLineupCommandTests {
    /// `entitle admin …` on the service's storage: its data directory, and its PostgreSQL database when it runs on one.
    static func admin(_ service: LocalService, _ arguments: [String]) async throws -> DeviceProcess.Result {
        let database = service.host.configuration.databaseURL.map { ["--database-url", $0] } ?? []
        return try await AdminCommandTests.admin(service, arguments + database)
    }

    @Test func preflightByLineupIsSetFromTheCommandLine() async throws {
        try await LocalService.run { service in
            let set = try await Self.admin(
                service,
                ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--preflight", "lineup", "--lineup-attribute", "urn:x:lineup"])
            #expect(set.status == 0, "\(set.stderr)")
            var view = try #require(try await service.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first)
            #expect(view.preflightMode == "lineup" && view.lineupAttribute == "urn:x:lineup")
            let off = try await Self.admin(
                service, ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--preflight", "mvpd"])
            #expect(off.status == 0, "\(off.stderr)")
            view = try #require(try await service.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first)
            #expect(view.preflightMode == "mvpd" && view.lineupAttribute == nil)
            #expect(
                try await service.service.repository.changeLogStore.changes(since: 0).contains {
                    $0.target == "REF/DemoCable" && $0.actor.hasPrefix("cli")
                })

            let cases: [([String], String)] = [
                (["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--preflight", "sometimes"], "sometimes"),
                (
                    ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--lineup-attribute", "x"],
                    "--lineup-attribute needs --preflight lineup"
                ),
                (
                    ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--preflight", "lineup", "--lineup-attribute", "a b"],
                    "printable ASCII"
                ),
                (["integration", "set", "--requestor", "REF", "--mvpd", "DemoStream", "--preflight", "lineup"], "needs a SAML 2.0 MVPD"),
                (["mvpd", "add", "--id", "X", "--name", "X", "--saml-metadata", "/nonexistent.xml", "--preflight", "lineup"], "give --requestor"),
            ]
            for (arguments, words) in cases {
                let refused = try await Self.admin(service, arguments)
                #expect(refused.status != 0 && refused.stderr.contains(words), "\(arguments): \(refused.status) \(refused.stderr)")
            }
        }
    }
}
