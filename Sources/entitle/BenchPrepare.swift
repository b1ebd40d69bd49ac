import ArgumentParser
import AsyncHTTPClient
import EntitleHost
import Foundation
import Logging

/// `entitle bench prepare`: signs a device in on a running service and prints its request headers, one
/// `Name: value` a line, for a load generator in another process (`Benchmarks/bench.sh` feeds them to wrk).
struct BenchPrepare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepare", abstract: "Sign a device in on a running service; print its request headers for wrk.")

    @Option(help: "Base URL of a running `entitle serve`.")
    var server: String

    @Option(help: "Software statement (JWT) file.")
    var softwareStatement = ".entitle/demo/software-statement.jwt"

    @Option(help: "MVPD to sign in at.")
    var mvpd = "DemoCable"

    @Option(help: "Subscriber (password <user>-pass).")
    var user = "alice"

    @Option(help: "Resource checked once after the sign-in.")
    var resource = "news"

    func run() async throws {
        guard let text = try? String(contentsOfFile: softwareStatement, encoding: .utf8) else {
            throw ValidationError("Cannot read the software statement at \(softwareStatement).")
        }
        var options = DecisionBenchmark.Options()
        options.concurrency = 1
        options.mvpd = mvpd
        options.username = user
        options.password = user + "-pass"
        options.resource = resource
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let headers: DecisionBenchmark.DeviceHeaders
        do {
            headers = try await DecisionBenchmark(
                httpClient: httpClient, baseURL: base,
                softwareStatement: text.trimmingCharacters(in: .whitespacesAndNewlines),
                options: options, logger: Logger(label: "entitle.bench")
            ).signedInDeviceHeaders()
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
        print("Authorization: \(headers.authorization)")
        print("AP-Device-Identifier: \(headers.deviceIdentifier)")
        print("X-Device-Info: \(headers.deviceInfo)")
    }
}
