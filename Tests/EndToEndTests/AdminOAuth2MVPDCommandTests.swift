import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin mvpd add` for an OAuth 2.0 MVPD, run as the real binary: OIDC discovery from the DemoMVPD's
/// DemoStream provider, the redirect URI to register printed, the client secret read from a file and never shown nor
/// recorded; then an app signs in through the new MVPD. Bad combinations are refused with a clear message.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AdminOAuth2MVPDCommandTests {
    static func admin(_ service: LocalService, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> DeviceProcess.Result
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The service's storage: its data directory, and its PostgreSQL database when it runs on one.
        let database = service.host.configuration.databaseURL.map { ["--database-url", $0] } ?? []
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(),
            arguments: ["admin"] + arguments + ["--data-dir", service.dataDirectory] + database, directory: directory, environment: environment)
        defer { process.stop() }
        return try await process.finish(timeout: DeviceProcess.patience)
    }

    @Test func anOperatorAddsAnOAuth2MVPDByDiscoveryAndAnAppSignsIn() async throws {
        try await LocalService.run { service in
            // DemoStream's client secret is the DemoMVPD's API key.
            let secretFile = service.dataDirectory + "/demo-mvpd/api-key"
            let secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let add = try await Self.admin(
                service,
                [
                    "mvpd", "add", "--id", "Streamy", "--name", "Streamy TV", "--requestor", "REF",
                    "--oauth2-issuer", service.baseURL + "/demo-mvpd/DemoStream", "--client-id", "entitle-demo",
                    "--client-secret-file", secretFile, "--scope", "openid", "--public-url", service.baseURL,
                    "--authorization-protocol", "rest", "--authorization-url", service.baseURL + "/demo-mvpd/DemoStream/rest/authz",
                ])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(add.stdout.contains("Register this redirect URI at the MVPD: \(service.baseURL)/adobe-services/oauth2"), "\(add.stdout)")
            #expect(!add.stdout.contains(secret) && !add.stderr.contains(secret))
            let changes = try await Self.admin(service, ["changes", "list", "--json"])
            #expect(changes.stdout.contains("Streamy") && !changes.stdout.contains(secret))
            let list = try await Self.admin(service, ["mvpd", "list"])
            #expect(list.stdout.contains("Streamy\toauth2\tStreamy TV"), "\(list.stdout)")

            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn(mvpd: "Streamy", user: "frank")
            #expect(try await app.enabler.userMetadata("userID").value == .string("dst-frank-0e72"))
            app.enabler.getAuthorization("sports")
            try await app.waitFor("setToken(sports)")

            // Removed (after disabling), nothing of the OAuth 2.0 integration stays behind.
            #expect(try await Self.admin(service, ["mvpd", "disable", "--id", "Streamy"]).status == 0)
            let removed = try await Self.admin(service, ["mvpd", "remove", "--id", "Streamy"])
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect(try await service.service.repository.oauth2Store.oauth2Settings(mvpd: "Streamy") == nil)
        }
    }

    @Test func badCombinationsAreRefusedWithAClearMessage() async throws {
        try await LocalService.run { service in
            let secretFile = service.dataDirectory + "/demo-mvpd/api-key"
            let issuer = service.baseURL + "/demo-mvpd/DemoStream"
            let cases: [([String], [String: String], String)] = [
                (["--oauth2-issuer", issuer, "--client-secret-file", secretFile], [:], "--client-id"),
                (["--oauth2-issuer", issuer, "--client-id", "c"], ["ENTITLE_OAUTH2_CLIENT_SECRET": ""], "--client-secret-file"),
                (
                    [
                        "--oauth2-issuer", issuer, "--oauth2-token-url", issuer + "/oauth2/token", "--client-id", "c", "--client-secret-file",
                        secretFile,
                    ],
                    [:], "not both"
                ),
                (
                    ["--oauth2-authorize-url", issuer + "/oauth2/authorize", "--client-id", "c", "--client-secret-file", secretFile], [:],
                    "--oauth2-token-url"
                ),
                (["--saml-metadata", "idp.xml", "--oauth2-issuer", issuer, "--client-id", "c"], [:], "exclude each other"),
                (
                    ["--oauth2-issuer", service.baseURL + "/nowhere", "--client-id", "c", "--client-secret-file", secretFile], [:],
                    "openid-configuration"
                ),
                ([], [:], "--saml-metadata"),
            ]
            for (arguments, environment, message) in cases {
                let result = try await Self.admin(
                    service, ["mvpd", "add", "--id", "Bad", "--name", "Bad", "--requestor", "REF"] + arguments, environment: environment)
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            }
            let list = try await Self.admin(service, ["mvpd", "list"])
            #expect(!list.stdout.contains("Bad"))
        }
    }

    @Test func thePreflightSettingIsPerIntegrationAndNeedsXACML() async throws {
        try await LocalService.run { service in
            let metadata = NSTemporaryDirectory() + "entitle-idp-\(UUID().uuidString).xml"
            defer { try? FileManager.default.removeItem(atPath: metadata) }
            try #require(service.host.demo?.metadata(for: "DemoCable")).xml().write(toFile: metadata, atomically: true, encoding: .utf8)
            let base = ["mvpd", "add", "--id", "Multi", "--name", "Multi Cable", "--saml-metadata", metadata]
            let xacml = ["--authorization-protocol", "xacml", "--authorization-url", service.baseURL + "/demo-mvpd/DemoCable/xacml"]
            let add = try await Self.admin(service, base + xacml + ["--requestor", "REF", "--preflight-max-resources", "3"])
            #expect(add.status == 0, "\(add.stderr)")
            #expect(try await service.service.repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "Multi") == 3)
            let off = try await Self.admin(service, base + xacml + ["--requestor", "REF", "--preflight-max-resources", "0"])
            #expect(off.status == 0, "\(off.stderr)")
            #expect(try await service.service.repository.mvpdOptionsStore.preflightMaxResources(requestor: "REF", mvpd: "Multi") == nil)
            for (arguments, message) in [
                (["--requestor", "REF", "--preflight-max-resources", "3"], "--authorization-protocol xacml"),
                (xacml + ["--preflight-max-resources", "3"], "--requestor"),
                (xacml + ["--requestor", "REF", "--preflight-max-resources", "5000"], "0 to 1000"),
            ] {
                let refused = try await Self.admin(service, base + arguments)
                #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            }
        }
    }

    @Test func xacmlBindingSigningAndPreflightFromTheCommandLine() async throws {
        try await LocalService.run { service in
            let metadata = NSTemporaryDirectory() + "entitle-idp-\(UUID().uuidString).xml"
            defer { try? FileManager.default.removeItem(atPath: metadata) }
            try #require(service.host.demo?.metadata(for: "DemoCable")).xml().write(toFile: metadata, atomically: true, encoding: .utf8)
            let base = ["mvpd", "add", "--id", "Olca", "--name", "OLCA Cable", "--saml-metadata", metadata, "--requestor", "REF"]
            let soapURL = service.baseURL + "/demo-mvpd/DemoCable/xacml/soap"
            let xacml = ["--authorization-protocol", "xacml", "--authorization-url", soapURL]
            let add = try await Self.admin(service, base + xacml + ["--xacml-binding", "soap", "--sign-authorization-queries"])
            #expect(add.status == 0, "\(add.stderr)")
            let shown = try await Self.admin(service, ["mvpd", "show", "--id", "Olca"])
            #expect(
                shown.stdout.contains("\"xacmlBinding\" : \"soap\"") && shown.stdout.contains("\"signAuthorizationQueries\" : true"),
                "\(shown.stdout)")

            for (arguments, message) in [
                (xacml + ["--sign-authorization-queries"], "--xacml-binding soap"),
                (["--xacml-binding", "soap"], "--authorization-protocol xacml"),
                (xacml + ["--xacml-binding", "carrier-pigeon"], "carrier-pigeon"),
            ] {
                let refused = try await Self.admin(service, base + arguments)
                #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            }

            let unsign = try await Self.admin(service, ["mvpd", "update", "--id", "Olca", "--no-sign-authorization-queries"])
            #expect(unsign.status == 0, "\(unsign.stderr)")
            #expect(
                try await service.service.repository.mvpdOptionsStore.xacmlOptions(mvpd: "Olca")
                    == MVPDXACMLOptions(binding: .soap, signQueries: false))
            let rest = try await Self.admin(
                service,
                [
                    "mvpd", "update", "--id", "Olca", "--authorization-protocol", "rest", "--authorization-url",
                    service.baseURL + "/demo-mvpd/DemoCable/rest/authz",
                ])
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(try await service.service.repository.catalogStore.authorizationProtocol(mvpd: "Olca") == .rest)
            let wrong = try await Self.admin(service, ["mvpd", "update", "--id", "Olca", "--sign-authorization-queries", "--xacml-binding", "plain"])
            #expect(wrong.status != 0 && wrong.stderr.contains("--xacml-binding soap"), "\(wrong.stderr)")
            let notXACML = try await Self.admin(service, ["mvpd", "update", "--id", "Olca", "--sign-authorization-queries"])
            #expect(notXACML.status != 0 && notXACML.stderr.contains("xacml authorization protocol"), "\(notXACML.stderr)")

            let preflight = try await Self.admin(
                service, ["integration", "set", "--requestor", "REF", "--mvpd", "Olca", "--preflight-max-resources", "4"])
            #expect(preflight.status == 0, "\(preflight.stderr)")
            let list = try await Self.admin(service, ["integration", "list", "--mvpd", "Olca", "--json"])
            #expect(list.stdout.contains("\"preflightMaxResources\" : 4"), "\(list.stdout)")
            let refused = try await Self.admin(
                service, ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--preflight-max-resources", "4"])
            #expect(refused.status != 0 && refused.stderr.contains("xacml or rest"), "\(refused.stderr)")
            let changes = try await Self.admin(service, ["changes", "list", "--json"])
            #expect(changes.stdout.contains("preflightMaxResources"))
        }
    }

    @Test func rotatingTheTokenEncryptionKeySaysWhatItAffectsAndKeepsTheSignIns() async throws {
        try await LocalService.run { service in
            let tv = try await service.client()
            _ = try await service.signIn(tv, mvpd: "DemoStream", user: "erin")
            let refused = try await Self.admin(service, ["keys", "rotate", "--purpose", "token-encryption", "--promote-after", "60"])
            #expect(refused.status != 0 && refused.stderr.contains("--promote-after does not apply"), "\(refused.stderr)")
            let rotated = try await Self.admin(service, ["keys", "rotate", "--purpose", "token-encryption"])
            #expect(rotated.status == 0, "\(rotated.stderr)")
            #expect(rotated.stderr.contains("encrypts 1 stored OAuth 2.0 refresh token(s)"), "\(rotated.stderr)")
            #expect(rotated.stdout.contains("re-encrypted 1 refresh token(s)"), "\(rotated.stdout)")
            let kid = try #require(try await service.service.repository.keyStore.activeKey(purpose: .tokenEncryption)?.kid)
            #expect(try await service.service.repository.oauth2Store.allOAuth2Grants().allSatisfy { $0.refreshToken.hasPrefix("v1.\(kid).") })
            let decision = try await tv.decisions("authorize", mvpd: "DemoStream", resources: ["sports"]).decode(DecisionsResponse.self)
            #expect(decision.decisions.first?.authorized == true, "\(decision)")
            let changes = try await Self.admin(service, ["changes", "list"])
            #expect(changes.stdout.contains("\tkeys.rotate\t"), "\(changes.stdout)")
        }
    }
}
