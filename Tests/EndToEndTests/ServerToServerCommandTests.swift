import EntitleTesting
import Foundation
import Testing

/// `entitle admin software-statement create --server-to-server` (docs/web-and-server-apps.md), run as a process on a
/// live service's storage: the statement is marked, `list` says so on its line only, the changes log records it, and
/// a client registered with it is a server-to-server client of the running service.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServerToServerCommandTests {
    @Test func aStatementMarkedServerToServerIsListedAndRecorded() async throws {
        try await LocalService.run { service in
            let marked = try await AdminCommandTests.admin(
                service,
                [
                    "software-statement", "create", "--requestor", "REF", "--name", "Backend", "--redirect-uri", "adobepass://ios.app",
                    "--server-to-server",
                ])
            #expect(marked.status == 0, "\(marked.stderr)")
            let markedID = try #require(
                marked.stderr.split(separator: "\n").first { $0.hasPrefix("software_id: ") }?.dropFirst("software_id: ".count))
            let plain = try await AdminCommandTests.admin(
                service, ["software-statement", "create", "--requestor", "REF", "--name", "App", "--redirect-uri", "adobepass://ios.app"])
            #expect(plain.status == 0, "\(plain.stderr)")
            let plainID = try #require(plain.stderr.split(separator: "\n").first { $0.hasPrefix("software_id: ") }?.dropFirst("software_id: ".count))

            let list = try await AdminCommandTests.admin(service, ["software-statement", "list", "--requestor", "REF"])
            let lines = list.stdout.split(separator: "\n")
            #expect(lines.first { $0.hasPrefix(markedID) }?.hasSuffix("\tserver-to-server") == true, "\(list.stdout)")
            #expect(lines.first { $0.hasPrefix(plainID) }?.contains("server-to-server") == false, "\(list.stdout)")

            let changes = try await AdminCommandTests.admin(service, ["changes", "list", "--since", "2000-01-01T00:00:00Z", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [[String: Any]])
            let created = try #require(entries.first { $0["target"] as? String == String(markedID) })
            #expect((created["valueAfter"] as? String)?.contains("\"serverToServer\":\"true\"") == true, "\(created)")

            let stored = try #require(try await service.service.applications.softwareStatements(requestor: "REF").first { $0.softwareId == markedID })
            #expect(stored.serverToServer)
        }
    }
}
