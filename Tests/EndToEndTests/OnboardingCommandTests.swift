import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin mvpd show|update|disable|enable|remove|list --json`, `integration enable|disable|list`,
/// `requestor disable|enable` and `operator add|list|disable|enable|password|remove`, run as processes on a live
/// service's storage: each change takes effect in the running service and lands in the changes log; each bad input is
/// a plain message and exit 1.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OnboardingCommandTests {
    static func admin(_ service: LocalService, _ arguments: [String], input: String? = nil) async throws -> DeviceProcess.Result {
        try await AdminCommandTests.admin(service, arguments, input: input)
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func mvpdsAndIntegrationsAreManagedFromTheCommandLine() async throws {
        try await LocalService.run { service in
            let update = try await Self.admin(
                service,
                [
                    "mvpd", "update", "--id", "DemoCable", "--name", "Demo Cable Plus", "--requires-safari-view-controller", "true",
                    "--platform-services", "true", "--boarding-status", "PICKER", "--profile-ttl", "3600",
                ])
            #expect(update.status == 0, "\(update.stderr)")
            let shown = try #require(try Self.json(try await Self.admin(service, ["mvpd", "show", "--id", "DemoCable"]).stdout) as? [String: Any])
            #expect(shown["name"] as? String == "Demo Cable Plus")
            #expect(shown["requiresSafariViewController"] as? Bool == true && shown["enablePlatformServices"] as? Bool == true)
            #expect(shown["boardingStatus"] as? String == "PICKER" && shown["profileTTLSeconds"] as? Int == 3600)
            #expect(shown["authorizationKeySet"] as? Bool == true && shown["authorizationKey"] == nil, "the key itself is never shown")
            let configuration = try await service.client().send(.GET, "/api/v2/REF/configuration").text
            #expect(configuration.contains("Demo Cable Plus"), "the running service sees the change")

            // One requestor's apps can show the MVPD under another name, and keep its sign-ins for another time.
            let set = try await Self.admin(
                service,
                ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--display-name", "Cable for REF", "--profile-ttl", "7200"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(try await service.client().send(.GET, "/api/v2/REF/configuration").text.contains("Cable for REF"))
            #expect(try await service.service.repository.catalogStore.integratedMVPD(requestor: "REF", mvpd: "DemoCable")?.profileTtlSeconds == 7200)
            let setList = try await Self.admin(service, ["integration", "list", "--mvpd", "DemoCable"])
            #expect(setList.stdout.contains("REF\tDemoCable\tenabled\tname=Cable for REF\tprofile-ttl=7200"), "\(setList.stdout)")
            #expect(
                try await Self.admin(service, ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--display-name", ""]).status == 0)
            #expect(try await service.client().send(.GET, "/api/v2/REF/configuration").text.contains("Demo Cable Plus"))

            // Metadata from a URL, fetched now and by `mvpd refresh` (here: DemoCable's own metadata, served by the DemoMVPD).
            let url = service.baseURL + "/demo-mvpd/DemoCable/saml/metadata"
            let fromURL = try await Self.admin(service, ["mvpd", "update", "--id", "DemoCable", "--saml-metadata-url", url])
            #expect(fromURL.status == 0, "\(fromURL.stderr)")
            let refreshed = try await Self.admin(service, ["mvpd", "refresh"])
            #expect(refreshed.status == 0 && refreshed.stdout.contains("no metadata changed"), "\(refreshed.stdout) \(refreshed.stderr)")
            // Metadata that changed at its URL (here: the stored copy made stale) is fetched once and applied, and logged.
            var stale = try #require(try await service.service.repository.catalogStore.mvpd(id: "DemoCable"))
            let entity = stale.entityId
            stale.entityId = "https://stale.example/idp"
            try await service.service.repository.catalogStore.upsertMVPD(stale)
            let applied = try await Self.admin(service, ["mvpd", "refresh", "--id", "DemoCable"])
            #expect(applied.status == 0 && applied.stdout.contains("DemoCable: metadata changed and applied"), "\(applied.stdout) \(applied.stderr)")
            #expect(try await service.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId == entity)
            let unreachable = try await Self.admin(
                service, ["mvpd", "update", "--id", "DemoCable", "--saml-metadata-url", service.baseURL + "/nope.xml"])
            #expect(unreachable.status == 1 && unreachable.stderr.contains("HTTP 404"), "\(unreachable.stderr)")
            #expect(try await Self.admin(service, ["mvpd", "refresh", "--id", "DemoFiber"]).stderr.contains("has no metadata URL"))

            let listed = try #require(try Self.json(try await Self.admin(service, ["mvpd", "list", "--json"]).stdout) as? [[String: Any]])
            #expect(listed.contains { $0["id"] as? String == "DemoFiber" })

            #expect(try await Self.admin(service, ["integration", "disable", "--requestor", "REF", "--mvpd", "DemoFiber"]).status == 0)
            let integrations = try await Self.admin(service, ["integration", "list", "--requestor", "REF"])
            #expect(integrations.stdout.contains("REF\tDemoFiber\tdisabled") && integrations.stdout.contains("REF\tDemoCable\tenabled"))
            #expect(!(try await service.client().send(.GET, "/api/v2/REF/configuration").text.contains("DemoFiber")))
            #expect(try await Self.admin(service, ["integration", "enable", "--requestor", "REF", "--mvpd", "DemoFiber"]).status == 0)

            #expect(try await Self.admin(service, ["mvpd", "disable", "--id", "DemoSSO"]).status == 0)
            #expect(!(try await service.client().send(.GET, "/api/v2/REF/configuration").text.contains("DemoSSO")))
            #expect(try await Self.admin(service, ["mvpd", "remove", "--id", "DemoSSO"]).status == 0)
            #expect(try await service.service.repository.catalogStore.mvpd(id: "DemoSSO") == nil)

            let refused: [([String], String)] = [
                (["mvpd", "show", "--id", "NOPE"], "no mvpd NOPE"),
                (["mvpd", "update", "--id", "NOPE", "--name", "X"], "no mvpd NOPE"),
                (["mvpd", "update", "--id", "DemoCable", "--boarding-status", "MAYBE"], "boarding status"),
                (["mvpd", "update", "--id", "DemoCable", "--profile-ttl", "5"], "profile TTL"),
                (["mvpd", "update", "--id", "DemoCable", "--saml-metadata", "/nonexistent.xml"], "cannot read"),
                (["mvpd", "remove", "--id", "DemoCable"], "disable DemoCable first"),
                (["integration", "enable", "--requestor", "NOPE", "--mvpd", "DemoCable"], "no requestor NOPE"),
                (["integration", "enable", "--requestor", "REF", "--mvpd", "NOPE"], "no mvpd NOPE"),
                (["requestor", "disable", "--id", "NOPE"], "no requestor NOPE"),
                (["integration", "set", "--requestor", "REF", "--mvpd", "NOPE", "--display-name", "X"], "not integrated"),
                (["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--profile-ttl", "5"], "profile TTL"),
                (["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--logo-url", "javascript:x"], "logo URL"),
            ]
            for (arguments, message) in refused {
                let result = try await Self.admin(service, arguments)
                #expect(result.status == 1 && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
            }
            #expect(try await Self.admin(service, ["mvpd", "update", "--id", "DemoCable"]).status == 64, "nothing to change is a usage error")

            let changes = try await Self.admin(service, ["changes", "list"])
            for action in ["mvpd.update", "integration.update", "integration.disable", "integration.enable", "mvpd.disable", "mvpd.remove"] {
                #expect(changes.stdout.contains("\t\(action)\t"), "\(action): \(changes.stdout)")
            }
        }
    }

    @Test func aDisabledRequestorIsUnknownUntilEnabled() async throws {
        try await LocalService.run { service in
            let tv = try await service.client()
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
            #expect(try await Self.admin(service, ["requestor", "disable", "--id", "REF"]).status == 0)
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status >= 400)
            let shown = try #require(try Self.json(try await Self.admin(service, ["requestor", "show", "--id", "REF"]).stdout) as? [String: Any])
            #expect(shown["disabled"] as? Bool == true)
            #expect(try await Self.admin(service, ["requestor", "enable", "--id", "REF"]).status == 0)
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
        }
    }

    @Test func operatorAccountsAreManagedFromTheCommandLine() async throws {
        try await LocalService.run { service in
            let add = try await Self.admin(
                service, ["operator", "add", "--username", "jane", "--role", "read-only"], input: "a long enough password\n")
            #expect(add.status == 0, "\(add.stderr)")
            let listed = try #require(try Self.json(try await Self.admin(service, ["operator", "list", "--json"]).stdout) as? [[String: Any]])
            #expect(listed.first?["username"] as? String == "jane" && listed.first?["role"] as? String == "read-only")
            #expect(!String(describing: listed).contains("scrypt"))
            let (token, _) = try await service.service.operators.signIn(username: "jane", password: "a long enough password", address: nil)
            #expect(try await Self.admin(service, ["operator", "disable", "--username", "jane"]).status == 0)
            #expect(try await service.service.operators.identity(token: token) == nil, "disabling ends the sessions")
            #expect(try await Self.admin(service, ["operator", "enable", "--username", "jane"]).status == 0)
            #expect(try await Self.admin(service, ["operator", "password", "--username", "jane"], input: "another long password\n").status == 0)
            _ = try await service.service.operators.signIn(username: "jane", password: "another long password", address: nil)

            let refused: [([String], String?, Int32, String)] = [
                (["operator", "add", "--username", "jane", "--role", "read-only"], "a long enough password\n", 1, "operator jane exists"),
                (["operator", "add", "--username", "bad name", "--role", "read-only"], "a long enough password\n", 1, "username"),
                (["operator", "add", "--username", "x", "--role", "admin"], "a long enough password\n", 64, "--role"),
                (["operator", "add", "--username", "y", "--role", "read-only"], "short\n", 1, "at least 12 characters"),
                (["operator", "add", "--username", "z", "--role", "read-only"], nil, 1, "no password"),
                (["operator", "disable", "--username", "nobody"], nil, 1, "no operator nobody"),
                (["operator", "remove", "--username", "nobody"], nil, 1, "no operator nobody"),
            ]
            for (arguments, input, status, message) in refused {
                let result = try await Self.admin(service, arguments, input: input)
                #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result.status) \(result.stderr)")
            }
            #expect(try await Self.admin(service, ["operator", "remove", "--username", "jane"]).status == 0)
            let changes = try await Self.admin(service, ["changes", "list"])
            for action in ["operator.add", "operator.disable", "operator.enable", "operator.password", "operator.remove"] {
                #expect(changes.stdout.contains("\t\(action)\tjane\t"), "\(action): \(changes.stdout)")
            }
            #expect(!changes.stdout.contains("long enough password") && !changes.stdout.contains("scrypt$"))
        }
    }

    @Test func everyOtherChangeOfTheCommandLineIsLoggedToo() async throws {
        try await LocalService.run { service in
            let steps: [[String]] = [
                ["cache", "flush"],
                ["authz-ttl", "set", "--mvpd", "DemoCable", "--seconds", "120"],
                ["legacy-key", "create", "--requestor", "REF"],
                ["requestor", "set-media-token-algorithm", "--requestor", "REF", "--algorithm", "rsa-sha256"],
                ["temppass", "add", "--id", "Spring", "--name", "Spring", "--minutes", "30", "--requestor", "REF"],
                ["temppass", "reset", "--requestor", "REF", "--mvpd", "Spring", "--all"],
            ]
            var publicKey = ""
            for arguments in steps {
                let result = try await Self.admin(service, arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                if let line = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("public_key: ") }) {
                    publicKey = String(line.dropFirst("public_key: ".count))
                }
            }
            #expect(try await Self.admin(service, ["legacy-key", "revoke", publicKey]).status == 0)
            let changes = try await Self.admin(service, ["changes", "list"])
            for action in [
                "cache.flush", "authz-ttl.set", "legacy-key.create", "requestor.media-token-algorithm", "temppass.add", "temppass.reset",
                "legacy-key.revoke",
            ] {
                #expect(changes.stdout.contains("\t\(action)\t"), "\(action): \(changes.stdout)")
            }
            #expect(!changes.stdout.contains("private_key"))
        }
    }
}
