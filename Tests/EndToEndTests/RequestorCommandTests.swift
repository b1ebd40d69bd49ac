import EntitleTesting
import Foundation
import Testing

/// `entitle admin requestor add|update|list|show`, the required `--requestor` of the admin commands, and the checks
/// that keep an MVPD from integrating with a requestor that does not exist, run as processes on a live service's storage.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RequestorCommandTests {
    static func admin(_ service: LocalService, _ arguments: [String]) async throws -> DeviceProcess.Result {
        try await AdminCommandTests.admin(service, arguments)
    }

    @Test func requestorIsCreatedChangedListedAndUsed() async throws {
        try await LocalService.run { service in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-requestor-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            // Before: no such requestor, so no software statement.
            let before = try await Self.admin(service, ["software-statement", "create", "--requestor", "MYNET", "--name", "App"])
            #expect(before.status == 1, "\(before.stdout) \(before.stderr)")

            let add = try await Self.admin(
                service, ["requestor", "add", "--id", "MYNET", "--name", "My Network", "--domain", "mynet.example", "--domain", "www.mynet.example"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains("requestor MYNET added"), "\(add.stdout)")

            let withoutRedirect = try await Self.admin(service, ["software-statement", "create", "--requestor", "MYNET", "--name", "App"])
            #expect(withoutRedirect.status == 1 && withoutRedirect.stderr.contains("at least one redirect URI"), "\(withoutRedirect.stderr)")
            let statement = try await Self.admin(
                service, ["software-statement", "create", "--requestor", "MYNET", "--name", "App", "--redirect-uri", "adobepass://ios.app"])
            #expect(statement.status == 0, "\(statement.stderr)")

            let list = try await Self.admin(service, ["requestor", "list", "--json"])
            #expect(list.status == 0, "\(list.stderr)")
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
            let mynet = try #require(listed.first { $0["id"] as? String == "MYNET" })
            #expect(mynet["domains"] as? [String] == ["mynet.example", "www.mynet.example"])
            #expect(mynet["programmerCertificate"] as? Bool == false)

            let update = try await Self.admin(service, ["requestor", "update", "--id", "MYNET", "--domain", "mynet.tv", "--max-resources", "20"])
            #expect(update.status == 0, "\(update.stderr)")
            let show = try await Self.admin(service, ["requestor", "show", "--id", "MYNET"])
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
            #expect(shown["domains"] as? [String] == ["mynet.tv"])
            #expect(shown["maxResources"] as? Int == 20)
            #expect(shown["name"] as? String == "My Network")

            // A real certificate is accepted; text that is not one is refused.
            let keyPath = folder.appendingPathComponent("key.pem").path
            let certificatePath = folder.appendingPathComponent("programmer.pem").path
            let openssl = try DeviceProcess(
                binary: URL(fileURLWithPath: "/usr/bin/openssl"),
                arguments: [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyPath, "-out", certificatePath, "-days", "2",
                    "-subj", "/CN=MYNET",
                ],
                directory: folder)
            defer { openssl.stop() }
            #expect(try await openssl.finish(timeout: DeviceProcess.patience).status == 0)
            let withCertificate = try await Self.admin(
                service, ["requestor", "update", "--id", "MYNET", "--programmer-certificate", certificatePath])
            #expect(withCertificate.status == 0, "\(withCertificate.stderr)")
            let shownAgain = try await Self.admin(service, ["requestor", "show", "--id", "MYNET"])
            #expect(shownAgain.stdout.contains("\"programmerCertificate\" : true"), "\(shownAgain.stdout)")

            let junk = folder.appendingPathComponent("junk.pem")
            try Data("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".utf8).write(to: junk)

            // Every bad input: a plain message on standard error and exit 1 (64 only for usage errors).
            let refused: [([String], String)] = [
                (["requestor", "add", "--id", "MYNET", "--name", "Again"], "requestor MYNET exists"),
                (["requestor", "add", "--id", "bad id", "--name", "X"], "requestor id"),
                (["requestor", "add", "--id", "OTHER", "--name", "X", "--domain", "not a domain!"], "is not a host name"),
                (["requestor", "add", "--id", "OTHER", "--name", "X", "--programmer-certificate", junk.path], "programmer certificate"),
                (["requestor", "add", "--id", "OTHER", "--name", "X", "--programmer-certificate", "/nonexistent.pem"], "cannot read"),
                (["requestor", "add", "--id", "OTHER", "--name", "X", "--max-resources", "0"], "max resources"),
                (["requestor", "update", "--id", "NOPE", "--name", "X"], "no requestor NOPE"),
                (["requestor", "show", "--id", "NOPE"], "no requestor NOPE"),
                (["legacy-key", "revoke", "no-such-key"], "no key pair"),
            ]
            for (arguments, message) in refused {
                let result = try await Self.admin(service, arguments)
                #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.hasPrefix("entitle admin: ") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
            let other = try await Self.admin(service, ["requestor", "show", "--id", "OTHER"])
            #expect(other.status == 1, "a refused add must leave nothing behind")

            // An MVPD cannot integrate with a requestor that does not exist.
            let metadata = folder.appendingPathComponent("idp.xml")
            try Data("<EntityDescriptor/>".utf8).write(to: metadata)
            let orphan = try await Self.admin(
                service, ["mvpd", "add", "--id", "Orphan", "--name", "Orphan", "--saml-metadata", metadata.path, "--requestor", "NOPE"])
            #expect(orphan.status == 1, "\(orphan.stderr)")
            #expect(orphan.stderr.contains("no requestor NOPE"), "\(orphan.stderr)")

            // The changes log: who, what, and the values before and after; refused changes leave no entry.
            let changes = try await Self.admin(service, ["changes", "list", "--json"])
            #expect(changes.status == 0, "\(changes.stderr)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [[String: Any]])
            let actions = entries.map { "\($0["action"] ?? "")|\($0["target"] ?? "")" }
            #expect(actions.filter { $0 == "requestor.add|MYNET" }.count == 1, "\(actions)")
            #expect(actions.filter { $0 == "requestor.update|MYNET" }.count == 2, "\(actions)")
            #expect(actions.contains { $0.hasPrefix("software-statement.create|") }, "\(actions)")
            #expect(!actions.contains { $0.hasSuffix("|OTHER") || $0.hasSuffix("|Orphan") }, "\(actions)")
            #expect(entries.allSatisfy { ($0["actor"] as? String)?.hasPrefix("cli:") == true })
            let firstUpdate = try #require(entries.first { $0["action"] as? String == "requestor.update" })
            #expect((firstUpdate["valueBefore"] as? String)?.contains("www.mynet.example") == true, "\(firstUpdate)")
            #expect((firstUpdate["valueAfter"] as? String)?.contains("mynet.tv") == true, "\(firstUpdate)")
            let text = try await Self.admin(service, ["changes", "list", "--since", "2000-01-01T00:00:00Z"])
            #expect(text.stdout.contains("\trequestor.add\tMYNET\t"), "\(text.stdout)")
            let future = try await Self.admin(service, ["changes", "list", "--since", "2999-01-01T00:00:00Z", "--json"])
            #expect(future.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || future.stdout.contains("[]"), "\(future.stdout)")
            let badSince = try await Self.admin(service, ["changes", "list", "--since", "yesterday"])
            #expect(badSince.status == 64 && badSince.stderr.contains("Not an ISO 8601 date"), "\(badSince.stderr)")

            // Rotating the key that signs software statements says what it affects first, needs --yes, and is logged;
            // --dry-run says what it would affect and changes nothing.
            let kids = { try await service.service.keyOperations.views().filter { $0.purpose == "jwt" }.map(\.kid) }
            let kidsBefore = try await kids()
            let dryRun = try await Self.admin(service, ["keys", "rotate", "--purpose", "jwt", "--dry-run"])
            #expect(dryRun.status == 0 && dryRun.stdout.contains("active statement(s) are signed with the current key"), "\(dryRun.stdout)")
            let unconfirmed = try await Self.admin(service, ["keys", "rotate", "--purpose", "jwt"])
            #expect(unconfirmed.status == 1 && unconfirmed.stderr.contains("give --yes to rotate"), "\(unconfirmed.stderr)")
            #expect(try await kids() == kidsBefore, "nothing rotated without --yes")
            let rotate = try await Self.admin(service, ["keys", "rotate", "--purpose", "jwt", "--yes"])
            #expect(rotate.status == 0, "\(rotate.stderr)")
            #expect(try await kids() != kidsBefore)
            #expect(rotate.stderr.contains("active statement(s) are signed with the current key"), "\(rotate.stderr)")
            let rotated = try await Self.admin(service, ["changes", "list"])
            #expect(rotated.stdout.contains("\tkeys.rotate\tjwt\t"), "\(rotated.stdout)")
        }
    }

    @Test func aRequestorsDefaultsForItsIntegrationsAreSetShownAndRemoved() async throws {
        try await LocalService.run { service in
            let add = try await Self.admin(
                service,
                [
                    "requestor", "add", "--id", "MYNET", "--name", "My Network", "--default-profile-ttl", "86400", "--default-authz-ttl", "0",
                    "--default-preflight-max-resources", "4",
                ])
            #expect(add.status == 0, "\(add.stderr)")
            let shown = try await Self.admin(service, ["requestor", "show", "--id", "MYNET"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(object["defaultProfileTTLSeconds"] as? Int == 86400)
            #expect(object["defaultAuthorizationTTLSeconds"] as? Int == 0)
            #expect(object["defaultPreflightMaxResources"] as? Int == 4)
            #expect(try await service.service.repository.catalogStore.authorizationTTL(requestor: "MYNET", mvpd: "DemoCable") == 0)

            let removed = try await Self.admin(
                service,
                [
                    "requestor", "update", "--id", "MYNET", "--default-profile-ttl", "0", "--default-authz-ttl", "none",
                    "--default-preflight-max-resources", "0",
                ])
            #expect(removed.status == 0, "\(removed.stderr)")
            let after = try await Self.admin(service, ["requestor", "show", "--id", "MYNET"])
            let afterObject = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
            #expect(afterObject["defaultProfileTTLSeconds"] == nil && afterObject["defaultAuthorizationTTLSeconds"] == nil)
            #expect(afterObject["defaultPreflightMaxResources"] == nil, "\(after.stdout)")

            for (arguments, message) in [
                (["--default-authz-ttl", "soon"], "--default-authz-ttl <seconds|none>"),
                (["--default-profile-ttl", "30"], "profile lifetime"),
                (["--default-preflight-max-resources", "5000"], "preflight maximum"),
            ] {
                let refused = try await Self.admin(service, ["requestor", "update", "--id", "MYNET"] + arguments)
                #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.status) \(refused.stderr)")
            }
            let changes = try await Self.admin(service, ["changes", "list", "--json"])
            #expect(changes.stdout.contains("defaultPreflightMaxResources"), "the defaults are in the changes log")
        }
    }

    @Test func noCommandDefaultsToTheDemoRequestor() async throws {
        try await LocalService.run { service in
            for arguments in [
                ["degradation", "set", "--mvpd", "DemoCable", "--rule", "authn-all"],
                ["degradation", "remove", "--mvpd", "DemoCable", "--rule", "authn-all"],
                ["temppass", "add", "--id", "Spring", "--name", "Spring"],
                ["temppass", "reset", "--all"],
                ["legacy-key", "list"],
            ] {
                let result = try await Self.admin(service, arguments)
                #expect(result.status == 64, "\(arguments): \(result.status)")
                #expect(result.stderr.contains("--requestor"), "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test func serveWarnsWhenTheDemoListensBeyondLoopback() async throws {
        // The storage cannot be opened (a file stands where the directory should be), so nothing ever listens:
        // the warning is printed before the service starts.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("blocked")
        try Data("x".utf8).write(to: blocker)
        let exposed = try await FirstHourCommandTests.entitle(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", blocker.appendingPathComponent("data").path])
        #expect(exposed.status != 0)
        #expect(exposed.stderr.contains("WARNING: the demo world is on"), "\(exposed.stderr)")
        let quiet = try await FirstHourCommandTests.entitle(
            ["serve", "--host", "0.0.0.0", "--port", "0", "--no-demo", "--data-dir", blocker.appendingPathComponent("data").path])
        #expect(quiet.status != 0)
        #expect(!quiet.stderr.contains("WARNING: the demo world"), "\(quiet.stderr)")
    }

    @Test func postgresStorageIsNotMistakenForAnEmptyDataDirectory() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let plain = try await FirstHourCommandTests.entitle(["admin", "requestor", "list", "--data-dir", empty.path])
        #expect(plain.status == 1 && plain.stderr.contains("no Entitle service data"), "\(plain.stderr)")
        for (arguments, environment) in [
            (["--database-url-file", empty.appendingPathComponent("missing-url").path], [String: String]()),
            ([], ["ENTITLE_DATABASE_URL": "postgres://entitle@127.0.0.1:1/none"]),
        ] {
            let result = try await FirstHourCommandTests.entitle(
                ["admin", "requestor", "list", "--data-dir", empty.path] + arguments, environment: environment)
            #expect(result.status == 1, "\(arguments) \(environment): \(result.status)")
            #expect(!result.stderr.contains("no Entitle service data"), "\(arguments) \(environment): \(result.stderr)")
        }
    }
}
