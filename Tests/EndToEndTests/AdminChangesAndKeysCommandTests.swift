@testable import EntitleDomain
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// `entitle admin changes list` (newest first, limited, with the why of each change), `keys list`, and the OAuth 2.0
/// redirect URI printed from the service's configured public URL, run as the real binary on a running service's storage.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AdminChangesAndKeysCommandTests {
    static func admin(_ service: LocalService, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> DeviceProcess.Result
    {
        try await AdminOAuth2MVPDCommandTests.admin(service, arguments, environment: environment)
    }

    @Test func changesAreListedNewestFirstLimitedAndWithTheirWhy() async throws {
        try await LocalService.run { service in
            try await ChangeDescription.$current.withValue("MVPD outage\tticket 42") {
                try await service.service.requestors.setDisabled(id: "REF", true, actor: "operator:noc")
            }
            try await service.service.requestors.setDisabled(id: "REF", false, actor: "operator:noc")

            let latest = try await Self.admin(service, ["changes", "list", "--limit", "2", "--newest-first"])
            #expect(latest.status == 0, "\(latest.stderr)")
            let lines = latest.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            #expect(lines.count == 2, "\(latest.stdout)")
            #expect(lines.map { $0.count > 2 ? $0[2] : "" } == ["requestor.enable", "requestor.disable"], "\(latest.stdout)")
            #expect(lines.last?.last == "MVPD outage ticket 42", "the why, on one line: \(latest.stdout)")
            #expect(lines.first?.last == "-", "no why given")

            let oldestFirst = try await Self.admin(service, ["changes", "list", "--limit", "2"])
            #expect(oldestFirst.stdout.split(separator: "\n").first?.contains("requestor.disable") == true, "\(oldestFirst.stdout)")
            let json = try await Self.admin(service, ["changes", "list", "--limit", "1", "--json"])
            #expect(json.stdout.contains("requestor.enable") && !json.stdout.contains("requestor.disable"), "\(json.stdout)")
            #expect(try await Self.admin(service, ["changes", "list", "--limit", "0"]).status != 0)
        }
    }

    @Test func keysAreListedWithoutPrivateKeys() async throws {
        try await LocalService.run { service in
            let list = try await Self.admin(service, ["keys", "list"])
            #expect(list.status == 0, "\(list.stderr)")
            let signing = try await service.service.keyOperations.views().filter { $0.state == "signing" }
            #expect(!signing.isEmpty)
            for key in signing { #expect(list.stdout.contains("\(key.purpose)\t\(key.kid)\tsigning"), "\(list.stdout)") }
            #expect(!list.stdout.contains("PRIVATE KEY"))
            let json = try await Self.admin(service, ["keys", "list", "--json"])
            #expect(json.stdout.contains("\"signsFrom\"") && !json.stdout.contains("PRIVATE KEY"))
        }
    }

    @Test func theRedirectURIComesFromTheServicesPublicURL() async throws {
        try await LocalService.run { service in
            let secretFile = service.dataDirectory + "/demo-mvpd/api-key"
            func add(_ id: String, environment: [String: String], extra: [String] = []) async throws -> DeviceProcess.Result {
                try await Self.admin(
                    service,
                    [
                        "mvpd", "add", "--id", id, "--name", id, "--requestor", "REF", "--oauth2-issuer", service.baseURL + "/demo-mvpd/DemoStream",
                        "--client-id", "entitle-demo", "--client-secret-file", secretFile, "--scope", "openid",
                    ] + extra, environment: environment)
            }
            let fromEnvironment = try await add("FromEnv", environment: ["ENTITLE_PUBLIC_URL": "https://tve.example.com/"])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            #expect(fromEnvironment.stdout.contains("Register this redirect URI at the MVPD: https://tve.example.com/adobe-services/oauth2\n"))

            let config = service.dataDirectory + "/entitle.yaml"
            try "public-url: https://config.example.com\n".write(toFile: config, atomically: true, encoding: .utf8)
            let fromFile = try await add("FromFile", environment: [:], extra: ["--config", config])
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromFile.stdout.contains("Register this redirect URI at the MVPD: https://config.example.com/adobe-services/oauth2\n"))
            #expect(!fromFile.stdout.contains("127.0.0.1:8080"), "\(fromFile.stdout)")

            let portOnly = service.dataDirectory + "/port.yaml"
            try "port: 9443\n".write(toFile: portOnly, atomically: true, encoding: .utf8)
            let fromPort = try await add("FromPort", environment: [:], extra: ["--config", portOnly])
            #expect(
                fromPort.stdout.contains("Register this redirect URI at the MVPD: http://127.0.0.1:9443/adobe-services/oauth2\n"),
                "\(fromPort.stdout)")
        }
    }
}
