import EntitleDomain
import EntitleHost
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// `entitle admin sso` as the real binary on the storage of a running service: an issuer is registered from a PEM file,
/// listed (keys by fingerprint), replaced and removed, each change in the changes log; bad input is a plain message.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SSOCommandTests {
    static let publicKey = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+3bvvixJlZChJ/urozucIMPUAkL8
        xAQLG79POPOlqGWmt3ndna70U/QQJdMeTo6Dww52r81WjgzOXndcymZ9IQ==
        -----END PUBLIC KEY-----

        """

    @Test func anOperatorAddsListsAndRemovesAnIssuer() async throws {
        try await LocalService.run { service in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("roku-\(UUID().uuidString).pem")
            try Self.publicKey.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }

            let added = try await AdminCommandTests.admin(
                service, ["sso", "add", "--id", "roku", "--type", "roku", "--issuer", "roku.com", "--public-key", file.path, "--requestor", "REF"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(
                added.stdout.contains("registered roku: roku tokens from roku.com in X-Roku-Reserved-Roku-Connect-Token, for REF"), "\(added.stdout)")
            let stored = try #require(try await service.service.repository.sso.issuer(id: "roku"))
            #expect(stored.type == .roku && stored.requestors == ["REF"] && stored.publicKeys == [Self.publicKey])

            let list = try await AdminCommandTests.admin(service, ["sso", "list"])
            #expect(list.status == 0 && list.stdout.hasPrefix("roku\troku\troku.com\taud=-\tREF\tES256 sha256:"), "\(list.stdout)")
            #expect(!list.stdout.contains("BEGIN PUBLIC KEY"))
            let json = try await AdminCommandTests.admin(service, ["sso", "list", "--json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(rows.first?["profileType"] as? String == "platformSSO")

            let service2 = try await AdminCommandTests.admin(
                service,
                [
                    "sso", "add", "--id", "mynet", "--type", "service-token", "--issuer", "https://id.mynet.example", "--jwks-url",
                    "https://id.mynet.example/.well-known/jwks.json", "--requestor", "REF",
                ])
            #expect(service2.status == 0, "\(service2.stderr)")
            #expect(
                try await AdminCommandTests.admin(service, ["sso", "list"]).stdout.contains(
                    "mynet\tservice-token\thttps://id.mynet.example\taud=adobe"))

            #expect(try await AdminCommandTests.admin(service, ["sso", "remove", "roku"]).status == 0)
            #expect(try await service.service.repository.sso.issuer(id: "roku") == nil)
            let again = try await AdminCommandTests.admin(service, ["sso", "remove", "roku"])
            #expect(again.status == 1 && again.stderr.contains("no sso issuer roku"), "\(again.stderr)")
            let actions = try await service.service.changes.recorded(since: 0).map { "\($0.action) \($0.target)" }
            #expect(actions.contains("sso.add roku") && actions.contains("sso.add mynet") && actions.contains("sso.remove roku"))

            // Bad input: a plain message and exit 1.
            let noKey = try await AdminCommandTests.admin(
                service, ["sso", "add", "--id", "x", "--type", "amazon", "--issuer", "amazon.com", "--requestor", "REF"])
            #expect(noKey.status == 1 && noKey.stderr.contains("public key"), "\(noKey.stderr)")
            let badType = try await AdminCommandTests.admin(
                service, ["sso", "add", "--id", "x", "--type", "google", "--issuer", "g", "--public-key", file.path, "--requestor", "REF"])
            #expect(badType.status == 1 && badType.stderr.contains("amazon, roku or service-token"), "\(badType.stderr)")
            let unknownRequestor = try await AdminCommandTests.admin(
                service, ["sso", "add", "--id", "x", "--type", "roku", "--issuer", "r", "--public-key", file.path, "--requestor", "NOPE"])
            #expect(unknownRequestor.status == 1, "\(unknownRequestor.stderr)")
        }
    }
}
