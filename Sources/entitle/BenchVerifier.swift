import ArgumentParser
import Foundation
import MediaTokenVerifier

/// `entitle bench verifier`: full media-token verifications per second against raw RSA-2048 verifications, one core.
struct BenchVerifier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifier",
        abstract: "Media tokens verified per second vs raw RSA-2048 signature verifications, same run, one core."
    )

    @Option(help: "Measurement time in seconds.")
    var seconds: Double = 5

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let result = VerifierBenchmark.run(seconds: seconds)
        let ratio = result.tokensPerSecond / result.rawRSAVerifiesPerSecond
        if json {
            print(#"{"tokensPerSecond":\#(Int(result.tokensPerSecond)),"rawRSAVerifiesPerSecond":\#(Int(result.rawRSAVerifiesPerSecond)),"ratio":\#(String(format: "%.3f", ratio))}"#)
        } else {
            print("media tokens verified/s:   \(Int(result.tokensPerSecond))")
            print("raw RSA-2048 verifies/s:   \(Int(result.rawRSAVerifiesPerSecond))")
            print("ratio (goal >= 0.9):       \(String(format: "%.3f", ratio))")
        }
    }
}
