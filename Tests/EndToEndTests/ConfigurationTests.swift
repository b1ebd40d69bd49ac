import EntitleHost
import Foundation
import Testing

/// One configuration for `entitle serve`, through the real binary: flag > environment > file > default for every
/// option, `--print-config` with secrets masked, and clear errors for unknown keys and bad values.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConfigurationTests {
    /// A folder for one test's files.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "entitle-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs `entitle serve ARGUMENTS` with exactly `environment` for ENTITLE_* (every other ENTITLE_ variable unset).
    static func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> DeviceProcess.Result {
        var cleared = [
            "ENTITLE_DATA_DIR": "", "ENTITLE_DATABASE_URL": "", "ENTITLE_TEST_DATABASE_URL": "", "ENTITLE_CONFIG": "", "PGPASSWORD": "",
        ]
        for (name, _) in ProcessInfo.processInfo.environment where name.hasPrefix("ENTITLE_") { cleared[name] = "" }
        return try await UpgradeTests.entitle(["serve"] + arguments, environment: cleared.merging(environment) { $1 })
    }

    /// The `key: value  # source` lines of `--print-config`, by key.
    static func printed(_ output: String) -> [String: (value: String, source: String)] {
        var result: [String: (String, String)] = [:]
        for line in output.split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":"), let hash = line.range(of: "  # ") else { continue }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            result[key] = (value, String(line[hash.upperBound...]))
        }
        return result
    }

    @Test func flagBeatsEnvironmentBeatsFileBeatsDefault() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/entitle.yaml"
        try """
        port: 7001
        host: 127.0.0.3
        rate-limit: 2.5
        trusted-proxy: [10.0.0.0/8, 192.0.2.7]
        no-demo: true
        log-level: warning
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await Self.serve(
            ["--config", file, "--port", "7003", "--print-config"],
            environment: ["ENTITLE_PORT": "7002", "ENTITLE_HOST": "127.0.0.4", "ENTITLE_LOG_LEVEL": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = Self.printed(result.stdout)
        #expect(printed["port"]?.value == "7003" && printed["port"]?.source == "flag --port", "\(result.stdout)")
        #expect(printed["host"]?.value == "\"127.0.0.4\"" && printed["host"]?.source == "environment ENTITLE_HOST")
        #expect(printed["rate-limit"]?.value == "2.5" && printed["rate-limit"]?.source == "file \(file)")
        #expect(printed["trusted-proxy"]?.value == "[\"10.0.0.0/8\", \"192.0.2.7\"]")
        #expect(printed["no-demo"]?.value == "true")
        #expect(printed["log-level"]?.value == "\"warning\"", "an empty variable counts as unset")
        #expect(printed["rate-burst"]?.value == "10.0" && printed["rate-burst"]?.source == "default")
        #expect(printed["public-url"]?.value == "null")

        // JSON too, and the output of --print-config is itself a configuration file.
        let json = folder + "/entitle.json"
        try #"{"port": 7101, "data-dir": "/var/lib/entitle-test", "no-demo": false}"#.write(toFile: json, atomically: true, encoding: .utf8)
        let fromJSON = Self.printed(try await Self.serve(["--config", json, "--print-config"]).stdout)
        #expect(fromJSON["port"]?.value == "7101" && fromJSON["data-dir"]?.value == "\"/var/lib/entitle-test\"")
        #expect(fromJSON["no-demo"]?.value == "false")
        let reprinted = folder + "/printed.yaml"
        try result.stdout.write(toFile: reprinted, atomically: true, encoding: .utf8)
        let again = Self.printed(try await Self.serve(["--config", reprinted, "--print-config"]).stdout)
        #expect(again["port"]?.value == "7003" && again["trusted-proxy"]?.value == printed["trusted-proxy"]?.value)
    }

    @Test func theEnvironmentAndTheFileReallyConfigureTheService() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = try freePort()
        try "no-demo: true\nlog-level: warning\n".write(toFile: folder + "/entitle.yaml", atomically: true, encoding: .utf8)
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(), arguments: ["serve", "--config", folder + "/entitle.yaml"],
            directory: URL(fileURLWithPath: folder),
            environment: ["ENTITLE_PORT": "\(port)", "ENTITLE_DATA_DIR": folder + "/data", "ENTITLE_DATABASE_URL": "", "ENTITLE_CONFIG": ""])
        defer { process.stop() }
        let line = try await process.waitForOutput(containing: "Base URL:", timeout: 120)
        #expect(line.contains("http://127.0.0.1:\(port)"))
        #expect(!process.output.contains("Demo subscribers"), "no-demo from the file")
        #expect(FileManager.default.fileExists(atPath: folder + "/data/entitle.sqlite"), "data-dir from the environment")
    }

    @Test func secretsAreMasked() async throws {
        let result = try await Self.serve(
            ["--print-config"], environment: ["ENTITLE_DATABASE_URL": "postgres://entitle:s3cr3t-pass@db.internal:5432/tve?sslmode=require"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("s3cr3t-pass"))
        #expect(result.stdout.contains("postgres://entitle:****@db.internal:5432/tve?sslmode=require"), "\(result.stdout)")
        // One setting, two options: the file's database-url-file gives way to the environment's database-url.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "database-url-file: /etc/entitle/database-url\n".write(toFile: folder + "/c.yaml", atomically: true, encoding: .utf8)
        let both = try await Self.serve(
            ["--config", folder + "/c.yaml", "--print-config"], environment: ["ENTITLE_DATABASE_URL": "postgres://e@db/tve"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(Self.printed(both.stdout)["database-url-file"]?.value == "null")
    }

    @Test func unknownKeysAndBadValuesAreRefusedWithWhereTheyCameFrom() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(file: String, name: String, expected: [String])] = [
            ("prot: 8080\n", "typo.yaml", ["unknown key \"prot\"", "typo.yaml", "port"]),
            ("data_dir: /x\n", "snake.yaml", ["unknown key \"data_dir\"", "did you mean \"data-dir\""]),
            (#"{"port": "eighty"}"#, "bad.json", ["port in", "bad.json", "'eighty' is invalid for '--port <port>'"]),
            (#"{"port": 8080"#, "broken.json", ["broken.json is not a JSON mapping"]),
            ("port: [1, 2]\n", "list.yaml", ["--port takes one value, not a list"]),
            ("no-demo: maybe\n", "flag.yaml", ["--no-demo is a flag: give true or false"]),
            ("max-connections: 0\n", "zero.yaml", ["max-connections in", "--max-connections must be positive"]),
            ("- a\n- b\n", "seq.yaml", ["is not a YAML mapping"]),
        ]
        for item in cases {
            try item.file.write(toFile: folder + "/" + item.name, atomically: true, encoding: .utf8)
            let result = try await Self.serve(["--config", folder + "/" + item.name, "--print-config"])
            #expect(result.status == 64, "\(item.name): \(result.status) \(result.stderr)")
            for text in item.expected { #expect(result.stderr.contains(text), "\(item.name): \(result.stderr)") }
        }
        let environment = try await Self.serve(["--print-config"], environment: ["ENTITLE_PORT": "eighty"])
        #expect(environment.status == 64)
        #expect(environment.stderr.contains("ENTITLE_PORT=eighty"), "\(environment.stderr)")
        let proxy = try await Self.serve(["--print-config"], environment: ["ENTITLE_TRUSTED_PROXY": "10.0.0.0/8,not-an-address"])
        #expect(proxy.status == 64)
        #expect(proxy.stderr.contains("ENTITLE_TRUSTED_PROXY") && proxy.stderr.contains("not-an-address"), "\(proxy.stderr)")
        let missing = try await Self.serve(["--config", folder + "/absent.yaml"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("cannot read the configuration file"), "\(missing.stderr)")
    }

    @Test func everyOptionOfServeIsASettingAndIsDocumented() async throws {
        let help = try await UpgradeTests.entitle(["serve", "--help"])
        let options = Set(
            help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "[" || $0 == "]" })
                .filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }) }
        ).subtracting(["help", "config", "print-config"])
        let printed = Self.printed(try await Self.serve(["--print-config"]).stdout)
        #expect(options == Set(printed.keys), "options \(options.sorted()) vs settings \(printed.keys.sorted())")
        let docs = try String(
            contentsOf: DeviceCommandTests.packageRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for name in printed.keys {
            let environment = "ENTITLE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(docs.contains("`--\(name)`") && docs.contains("`\(environment)`"), "docs/configuration.md does not list \(name)")
        }
    }
}
