import EntitleHost
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production start fails closed: the configuration file's URLs are read as URLs, a public URL that is not an
/// absolute http(s) URL (or is http beyond loopback, or is missing beyond loopback) stops the start naming the value
/// and its source, and a service whose port is public serves no operator surface without an operations address.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProductionStartTests {
    @Test func unquotedURLsInTheYAMLFileStayURLs() async throws {
        let folder = try ConfigurationTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
        public-url: https://tve.example.com
        database-url: postgres://entitle:s3cr3t@db.internal:5432/tve
        host: 0.0.0.0
        no-demo: true
        port: 8080
        """.write(toFile: folder + "/entitle.yaml", atomically: true, encoding: .utf8)
        let result = try await ConfigurationTests.serve(["--config", folder + "/entitle.yaml", "--print-config"])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = ConfigurationTests.printed(result.stdout)
        #expect(printed["public-url"]?.value == "\"https://tve.example.com\"", "\(result.stdout)")
        #expect(printed["database-url"]?.value == "\"postgres://entitle:****@db.internal:5432/tve\"", "\(result.stdout)")
        #expect(printed["port"]?.value == "8080")
    }

    @Test func aBadPublicURLStopsTheStartWithTheValueAndTheReason() async throws {
        let refused: [(arguments: [String], environment: [String: String], expected: [String])] = [
            (["--public-url", "ftp//nonsense"], [:], ["ftp//nonsense", "is not an absolute http(s) URL"]),
            (["--public-url", "ftp://tve.example.com"], [:], ["is not an absolute http(s) URL"]),
            (["--public-url", "https://"], [:], ["it has no host"]),
            (["--public-url", "https://admin:pw@tve.example.com"], [:], ["may not carry a user"]),
            (["--no-demo", "--public-url", "http://tve.example.com"], [:], ["is http on a non-loopback host", "--allow-insecure-public-url"]),
            (["--no-demo", "--host", "0.0.0.0"], [:], ["--public-url is required", "0.0.0.0"]),
            (["--port", "70000"], [:], ["--port must be 0-65535"]),
            ([], ["ENTITLE_PUBLIC_URL": "ftp//nonsense"], ["ENTITLE_PUBLIC_URL=ftp//nonsense", "not an absolute http(s) URL"]),
        ]
        for item in refused {
            let result = try await ConfigurationTests.serve(item.arguments + ["--print-config"], environment: item.environment)
            #expect(result.status == 64, "\(item.arguments) \(item.environment): \(result.status) \(result.stderr)")
            for text in item.expected { #expect(result.stderr.contains(text), "\(item.arguments): \(result.stderr)") }
        }
        let accepted: [[String]] = [
            ["--no-demo", "--public-url", "http://tve.example.com", "--allow-insecure-public-url"],
            ["--no-demo", "--public-url", "http://127.0.0.1:8080"],
            ["--no-demo", "--host", "0.0.0.0", "--public-url", "https://tve.example.com"],
            ["--host", "0.0.0.0"],
        ]
        for arguments in accepted {
            let result = try await ConfigurationTests.serve(arguments + ["--print-config"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test func aPublicServicePortServesNoOperatorSurfaceWithoutAnOperationsAddress() async throws {
        let folder = try ConfigurationTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = try freePort()
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(),
            arguments: ["serve", "--no-demo", "--port", "\(port)", "--public-url", "https://tve.example.com", "--data-dir", folder + "/data"],
            directory: URL(fileURLWithPath: folder),
            environment: ["ENTITLE_DATABASE_URL": "", "ENTITLE_CONFIG": "", "ENTITLE_DATA_DIR": ""])
        defer { process.stop() }
        _ = try await process.waitForOutput(containing: "Base URL:", timeout: DeviceProcess.patience)
        #expect(process.errorOutput.contains("WARNING: the console (/console), the admin API (/admin/api) and /metrics are not served"))
        #expect(process.output.contains("Settings from:") && process.output.contains("public-url=https://tve.example.com (flag)"))
        for path in ["/console/", "/console/sign-in", "/admin/api/requestors", "/metrics"] {
            let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 404, "\(path) on the public port")
        }
        let (_, ready) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/readyz")!)
        #expect((ready as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func entitleAdminReadsTheConfigurationAndStorageSettingsAsServeDoes() async throws {
        let folder = try ConfigurationTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "data-dir: \(folder)/from-file\nno-demo: true\n".write(toFile: folder + "/entitle.yaml", atomically: true, encoding: .utf8)
        let cleared = ["ENTITLE_DATA_DIR": "", "ENTITLE_DATABASE_URL": "", "ENTITLE_CONFIG": "", "ENTITLE_DATABASE_URL_FILE": ""]
        let fromFlag = try await UpgradeTests.entitle(["admin", "mvpd", "list", "--config", folder + "/entitle.yaml"], environment: cleared)
        #expect(fromFlag.status == 1 && fromFlag.stderr.contains("\(folder)/from-file"), "\(fromFlag.stderr)")
        var environment = cleared
        environment["ENTITLE_CONFIG"] = folder + "/entitle.yaml"
        let fromEnvironment = try await UpgradeTests.entitle(["admin", "mvpd", "list"], environment: environment)
        #expect(fromEnvironment.stderr.contains("\(folder)/from-file"), "\(fromEnvironment.stderr)")
        // The environment beats the file, as for serve; ENTITLE_DATABASE_URL_FILE names PostgreSQL's URL file.
        environment["ENTITLE_DATABASE_URL_FILE"] = folder + "/absent-url"
        let database = try await UpgradeTests.entitle(["admin", "mvpd", "list"], environment: environment)
        #expect(database.status == 1 && database.stderr.contains("\(folder)/absent-url"), "\(database.stderr)")
        let broken = try await UpgradeTests.entitle(["admin", "mvpd", "list", "--config", folder + "/absent.yaml"], environment: cleared)
        #expect(broken.status == 1 && broken.stderr.contains("cannot read the configuration file"), "\(broken.stderr)")
    }
}
