import ArgumentParser
import AsyncHTTPClient
import EntitleHost
import Foundation
import Logging
import NIOCore

/// `entitle bench decisions`: authorization decisions per second and p50/p99 latency at a fixed concurrency, with
/// `GET /healthz` measured in the same run as the baseline.
struct BenchDecisions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decisions",
        abstract: "Authorization decisions/s and p50/p99 latency vs /healthz, same run, fixed concurrency.",
        discussion: """
            Without --server, starts an in-process service with the DemoMVPD (SQLite in a temporary directory, \
            throttling off, free loopback port; PostgreSQL when ENTITLE_TEST_DATABASE_URL is set) and removes it afterwards. With --server, measures a running \
            `entitle serve`, which must run with `--rate-limit 0` for a benchmark: the default throttling is \
            1 request/s per device (burst 10), so most requests would be answered 429. Each worker uses its own \
            device id. The subscriber is signed in once per worker through the browser leg (DemoMVPD login form).
            """
    )

    @Option(help: "Base URL of a running `entitle serve --rate-limit 0`; omitted: an in-process service.")
    var server: String?

    @Option(help: "Concurrent workers (one device each).")
    var concurrency = 8

    @Option(help: "Measured seconds per phase (decisions, then /healthz).")
    var duration = 10.0

    @Option(help: "Unmeasured warm-up seconds before each phase.")
    var warmup = 1.0

    @Option(help: "Software statement (JWT) file; default: the in-process demo statement, or .entitle/demo/software-statement.jwt with --server.")
    var softwareStatement: String?

    @Option(help: "Resource to authorize.")
    var resource = "news"

    @Option(help: "MVPD to sign in at.")
    var mvpd = "DemoCable"

    @Option(help: "Subscriber to sign in.")
    var user = "alice"

    @Option(help: "The subscriber's password (default: <user>-pass, as in the demo world).")
    var password: String?

    @Option(help: "Requestor id.")
    var requestor = "REF"

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency must be 1...1024.") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be in (0, 3600] seconds.") }
        guard warmup >= 0, warmup <= 600 else { throw ValidationError("--warmup must be in [0, 600] seconds.") }
    }

    func run() async throws {
        var logger = Logger(label: "entitle.bench")
        logger.logLevel = .warning
        var options = DecisionBenchmark.Options()
        options.concurrency = concurrency
        options.duration = .milliseconds(Int64(duration * 1000))
        options.warmup = .milliseconds(Int64(warmup * 1000))
        options.resource = resource
        options.mvpd = mvpd
        options.username = user
        options.password = password ?? user + "-pass"
        options.serviceProvider = requestor

        var clientConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, concurrency + 2))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        let report: DecisionBenchmark.Report
        do {
            if let server {
                let path = softwareStatement ?? ".entitle/demo/software-statement.jwt"
                let statement = try readStatement(path)
                let base = server.hasSuffix("/") ? String(server.dropLast()) : server
                report = try await DecisionBenchmark(
                    httpClient: httpClient, baseURL: base, softwareStatement: statement,
                    options: options, logger: logger
                ).run()
            } else {
                let statementOverride = try softwareStatement.map(readStatement)
                report = try await DecisionBenchmark.withInProcessHost { base, demoStatement in
                    try await DecisionBenchmark(
                        httpClient: httpClient, baseURL: base, softwareStatement: statementOverride ?? demoStatement,
                        options: options, logger: logger
                    ).run()
                }
            }
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
        print(json ? Self.jsonText(report, inProcess: server == nil) : Self.text(report, inProcess: server == nil))
    }

    func readStatement(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("Cannot read the software statement at \(path) (use --software-statement).")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The build configuration of this binary, printed so numbers are never mistaken for release figures.
    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static func text(_ report: DecisionBenchmark.Report, inProcess: Bool) -> String {
        func line(_ label: String, _ m: DecisionBenchmark.Measurement) -> String {
            let rate = String(format: "%9.1f req/s", m.requestsPerSecond)
            let latency = String(format: "p50 %7.2f ms  p99 %7.2f ms", m.p50Milliseconds, m.p99Milliseconds)
            var text = "\(label)\(rate)  \(latency)  ok \(m.successes)  errors \(m.errors)"
            if let first = m.firstError { text += "\n    first error: \(first)" }
            return text
        }
        return [
            "target: \(report.target)\(inProcess ? " (in-process)" : "")  build: \(build)  concurrency: \(report.concurrency)  "
                + "duration: \(report.durationSeconds) s per phase  resource: \(report.resource)",
            line("decisions/authorize ", report.decisions),
            line("healthz             ", report.healthz),
            String(format: "ratio decisions/healthz throughput: %.3f", report.ratio),
        ].joined(separator: "\n")
            + (report.decisions.firstError?.hasPrefix("HTTP 429") == true
                ? "\nnote: 429 answers: run `entitle serve --rate-limit 0` for a benchmark (the default is 1 request/s per device)."
                : "")
    }

    static func jsonText(_ report: DecisionBenchmark.Report, inProcess: Bool) -> String {
        struct Output: Encodable {
            let build: String
            let inProcess: Bool
            let report: DecisionBenchmark.Report
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Output(build: build, inProcess: inProcess, report: report))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
