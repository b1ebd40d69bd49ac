import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleServer
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
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(),
            arguments: ["admin"] + arguments + ["--data-dir", service.dataDirectory], directory: directory, environment: environment)
        defer { process.stop() }
        return try await process.finish(timeout: 60)
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
            #expect(try await service.service.repository.oauth2Settings(mvpd: "Streamy") == nil)
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
            #expect(try await service.service.repository.preflightMaxResources(requestor: "REF", mvpd: "Multi") == 3)
            let off = try await Self.admin(service, base + xacml + ["--requestor", "REF", "--preflight-max-resources", "0"])
            #expect(off.status == 0, "\(off.stderr)")
            #expect(try await service.service.repository.preflightMaxResources(requestor: "REF", mvpd: "Multi") == nil)
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
}
