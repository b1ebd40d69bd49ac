import ArgumentParser
import EntitleDomain
import EntitleHost
import EntitleHTTP
import EntitleModel
import Foundation
import Hummingbird
import Logging

/// `entitle serve`: the service and the DemoMVPD with the seeded demo world.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the Entitle service and the DemoMVPD (SQLite in ./.entitle by default).",
        discussion: """
            Every option may also come from the environment, ENTITLE_ and the option in upper snake case (--data-dir: \
            ENTITLE_DATA_DIR; a repeated option comma-separated; a flag true or false), and from a JSON or YAML file \
            given with --config (keys named as the long options). Precedence: flag > environment > file > default. \
            See docs/configuration.md.
            """)

    @Option(help: "Interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @OptionGroup var storage: StorageOptions

    @Option(
        help:
            "Externally visible base URL, absolute http(s) (default: http://HOST:PORT; required with --no-demo on a non-loopback --host; https unless its host is loopback or --allow-insecure-public-url)."
    )
    var publicURL: String?

    @Flag(help: "Accept an http:// --public-url whose host is not loopback (a test network without TLS; never in production).")
    var allowInsecurePublicURL = false

    @Option(help: "Requests per second per device before 429 (0 disables).")
    var rateLimit = 1.0

    @Option(help: "Burst of requests per device.")
    var rateBurst = 10.0

    @Option(help: "Milliseconds a change made by another instance or `entitle admin` may stay unseen (catalog cache bound).")
    var catalogRefreshMs = 500

    @Option(
        help:
            "Milliseconds a logout or sign-in made by another instance may stay unseen by this one's in-memory profiles (0 reads every profile from the database)."
    )
    var profileCacheMs = 250

    @Option(help: "Devices whose profiles are kept in memory at most (about 1 KB each).")
    var profileCacheDevices = 250_000

    @Option(help: "Days the reports' per-minute figures are kept (/admin/api/v1/reports); older ones are purged.")
    var reportRetentionDays = 90

    @Option(help: "Hours MVPD metadata fetched from a URL is used before the service reads it again (0: only `entitle admin mvpd refresh`).")
    var metadataRefreshHours = 24

    @Option(help: "Seconds a connection may stay silent (no request, an unfinished header, a stalled body) before it is closed.")
    var idleTimeout = ConnectionLimits().idleTimeout

    @Option(help: "Seconds to receive a whole request, header and body.")
    var requestTimeout = ConnectionLimits().requestTimeout

    @Option(help: "Connections served at once; more wait in the listen backlog (keep below ulimit -n).")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(help: "Connections one client address may hold at once; more are answered 503 (0: no limit; trusted proxies exempt).")
    var maxConnectionsPerAddress = ConnectionLimits().maxConnectionsPerAddress

    @Option(help: "Seconds from a request header's first byte to its end (keep below --idle-timeout).")
    var headerTimeout = ConnectionLimits().headerTimeout

    @Option(
        help: ArgumentHelp(
            "A proxy or load balancer (IP or CIDR, repeatable) whose Forwarded / X-Forwarded-For / X-Forwarded-Proto name the client.",
            valueName: "cidr"))
    var trustedProxy: [String] = []

    @Option(help: "Interface of the operations address (default: 127.0.0.1); used with --admin-port.")
    var adminHost: String?

    @Option(
        help:
            "Port of the operations address serving the console (/console), the admin API (/admin/api) and /metrics, which the service port then does not serve."
    )
    var adminPort: Int?

    @Flag(
        help:
            "Serve the console, the admin API and /metrics on the service port although it is not local (a non-loopback --host or --public-url); without it, and without --admin-port, they are not served."
    )
    var operationsOnPublicPort = false

    @Flag(help: "Do not seed the demo world or mount the DemoMVPD.")
    var noDemo = false

    @Option(help: "Log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel = "info"

    @Flag(help: "Print the effective settings (secrets masked) and where each comes from, then exit.")
    var printConfig = false

    func validate() throws {
        guard idleTimeout > 0, requestTimeout > 0 else { throw ValidationError("--idle-timeout and --request-timeout must be positive.") }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be positive.") }
        guard maxConnectionsPerAddress >= 0 else { throw ValidationError("--max-connections-per-address must not be negative.") }
        guard headerTimeout > 0 else { throw ValidationError("--header-timeout must be positive.") }
        guard reportRetentionDays > 0 else { throw ValidationError("--report-retention-days must be positive.") }
        guard (0...8760).contains(metadataRefreshHours) else { throw ValidationError("--metadata-refresh-hours is 0 to 8760.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535.") }
        if let adminPort, !(0...65535).contains(adminPort) || (adminPort == port && port != 0) {
            throw ValidationError("--admin-port must be 0-65535 and differ from --port.")
        }
        try Self.validatePublicURL(publicURL, host: host, demo: !noDemo, allowInsecure: allowInsecurePublicURL)
        if adminHost != nil && adminPort == nil { throw ValidationError("--admin-host needs --admin-port.") }
        for proxy in trustedProxy where IPAddressRange(proxy) == nil {
            throw ValidationError("--trusted-proxy \(proxy) is not an IP address or CIDR range (e.g. 10.0.0.0/8, 192.0.2.7, fd00::/8).")
        }
    }

    func run() async throws {
        if printConfig {
            let arguments = Array(CommandLine.arguments.drop { $0 != "serve" }.dropFirst())
            let resolved: ServeConfiguration
            do { resolved = try ServeConfiguration.resolve(arguments: arguments, environment: ProcessInfo.processInfo.environment) } catch {
                throw ValidationError("\(error)")
            }
            print(resolved.rendered, terminator: "")
            return
        }
        var logger = Logger(label: "entitle") { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = try storage.hostConfiguration(host: host, port: port, publicURL: publicURL)
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = rateBurst
        configuration.catalogRefresh = .milliseconds(max(0, catalogRefreshMs))
        configuration.profileCacheBound = .milliseconds(max(0, profileCacheMs))
        configuration.profileCacheDevices = max(1, profileCacheDevices)
        configuration.reportRetentionDays = reportRetentionDays
        configuration.metadataRefreshInterval = metadataRefreshHours > 0 ? .seconds(metadataRefreshHours * 3600) : nil
        configuration.demo = !noDemo
        if let warning = Serve.demoExposureWarning(host: host, demo: !noDemo) {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
            logger.warning("demo world reachable from other machines", metadata: ["host": "\(host)"])
        }
        configuration.connectionLimits.idleTimeout = idleTimeout
        configuration.connectionLimits.requestTimeout = requestTimeout
        configuration.connectionLimits.maxConnections = maxConnections
        configuration.connectionLimits.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.connectionLimits.headerTimeout = headerTimeout
        configuration.trustedProxies = trustedProxy.compactMap { IPAddressRange($0) }
        configuration.adminHost = adminHost ?? "127.0.0.1"
        configuration.adminPort = adminPort
        configuration.operationsOnServicePort = operationsOnPublicPort || Self.isLocal(host: host, publicURL: publicURL)
        if let warning = Self.operationsWarning(
            host: host, publicURL: publicURL, adminPort: adminPort, operationsOnPublicPort: operationsOnPublicPort)
        {
            FileHandle.standardError.write(Data((warning + "\n").utf8))
            logger.warning("operations surfaces not on an operations address", metadata: ["host": "\(host)"])
        }
        let sources = Self.settingSources()
        let entitleHost = try await EntitleHost.prepare(configuration: configuration, logger: logger)
        let dataDirectory = configuration.dataDirectory
        let databaseURLFile = configuration.databaseURLSource?.file
        let configFile = storage.config ?? ServeConfiguration.nonEmpty(ProcessInfo.processInfo.environment["ENTITLE_CONFIG"])
        let base = configuration.baseURL
        let info = entitleHost.demoInfo
        let operations = adminPort.map { _ in "http://\(adminHost ?? "127.0.0.1")" }
        let app = entitleHost.makeApplication(
            onServerRunning: { _ in
                var lines = [
                    "Entitle is running.",
                    "  Base URL:            \(base)",
                    "  Storage:             \(entitleHost.usesPostgreSQL ? "PostgreSQL" : "SQLite in \(dataDirectory)")",
                    "  OpenAPI document:    \(base)/openapi.json",
                    "  Media-token keys:    \(base)/keys/media-token",
                ]
                if let info {
                    lines += [
                        "  Requestor id:        \(info.requestorID)",
                        "  Software statement:  \(info.softwareStatementPath)",
                        "  Programmer key:      \(info.programmerKeyPath)",
                        "  Demo subscribers:    alice / alice-pass (Demo Cable: news, sports, movies; TV-MA)",
                        "                       bob / bob-pass (Demo Cable: news, sports; TV-PG)",
                        "                       carol / carol-pass (Demo Fiber: news; TV-14)",
                        "                       dave / dave-pass (Demo SSO TV: news, movies; TV-14)",
                        "                       grace / grace-pass (Valley Cable, through the proxy Demo Proxy: news, sports; TV-14)",
                        "  TempPass:            TempPass (10 minutes per device, no login);",
                        "                       TempPassPromo (3 videos per AP-TempPass-Identity, 24 hours)",
                        "  Activation page:     \(base)/activate",
                    ]
                }
                if !sources.isEmpty { lines.append("  Settings from:       " + sources.joined(separator: "\n                       ")) }
                lines += Serve.nextSteps(
                    base: base, dataDirectory: dataDirectory, demo: info != nil, configFile: configFile,
                    databaseURLFile: databaseURLFile, postgreSQL: entitleHost.usesPostgreSQL)
                lines.append("Press Ctrl-C to stop.")
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            },
            onOperationsRunning: { port in
                guard let operations, let port else { return }
                FileHandle.standardOutput.write(Data("Operations address (/console, /admin/api, /metrics): \(operations):\(port)\n".utf8))
            })
        do {
            try await withEventLoopTaskExecutor { try await app.runService() }
        } catch {
            await entitleHost.shutdown()
            throw error
        }
        await entitleHost.shutdown()
    }

    /// What to do next, for a person who just started the service: the environment for the other commands (when not
    /// the defaults) and the first commands to try.
    /// `entitle admin` reads the same configuration file and database settings as serve, so the environment printed here
    /// is what makes the commands below reach this service's storage.
    static func nextSteps(
        base: String, dataDirectory: String, demo: Bool, configFile: String? = nil, databaseURLFile: String? = nil, postgreSQL: Bool = false
    ) -> [String] {
        var lines = ["", "Next, in another terminal:"]
        var environment: [String] = []
        if base != EnvironmentDefaults.defaultServiceURL { environment.append("export ENTITLE_URL=\(base)") }
        if let configFile { environment.append("export ENTITLE_CONFIG=\(URL(fileURLWithPath: configFile).standardizedFileURL.path)") }
        // The environment beats the file for `entitle admin` too, so this names the directory in use whatever the file says.
        if dataDirectory != EnvironmentDefaults.defaultDataDirectory && !postgreSQL {
            environment.append("export ENTITLE_DATA_DIR=\(URL(fileURLWithPath: dataDirectory).standardizedFileURL.path)")
        }
        if let databaseURLFile {
            environment.append("export ENTITLE_DATABASE_URL_FILE=\(URL(fileURLWithPath: databaseURLFile).standardizedFileURL.path)")
        } else if postgreSQL && configFile == nil {
            environment.append("export ENTITLE_DATABASE_URL=...   # the PostgreSQL URL this service was given")
        }
        lines += environment.map { "  " + $0 }
        if demo {
            lines += [
                "  entitle device login                 sign a TV box in: enter its code at \(base)/activate",
                "  entitle device authorize news        then get a media token and verify it",
            ]
        }
        lines += [
            "  entitle admin mvpd list              what the service federates with",
            "  open \(base)/".padding(toLength: max(39, base.count + 9), withPad: " ", startingAt: 0) + "what runs here, with links",
            "",
        ]
        return lines
    }
}
