import ArgumentParser
import EntitleCore
import Foundation
import MediaTokenVerifier

/// `entitle bench verifier`: full media-token verifications per second against raw RSA-2048 verifications, one core;
/// then the raw sign and verify rates of RSA-2048, ECDSA P-256 and Ed25519 media-token signatures.
struct BenchVerifier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifier",
        abstract: "Media tokens verified per second vs raw RSA-2048 signature verifications, same run, one core; raw sign/verify rates per algorithm."
    )

    @Option(help: "Measurement time in seconds.")
    var seconds: Double = 5

    @Option(help: "Seconds per algorithm for the raw sign/verify rates (0: skip them).")
    var rateSeconds: Double = 2

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let result = try VerifierBenchmark.run(seconds: seconds)
        let ratio = result.tokensPerSecond / result.rawRSAVerifiesPerSecond
        let rates = rateSeconds > 0 ? try SignatureRateBenchmark.run(seconds: rateSeconds) : []
        let rsa = rateSeconds > 0 ? try RSAImplementationRates.measure(seconds: rateSeconds) : nil
        if json {
            let algorithms = rates.map {
                #""\#($0.algorithm.rawValue)":{"signsPerSecond":\#(Int($0.signsPerSecond)),"verifiesPerSecond":\#(Int($0.verifiesPerSecond))}"#
            }
            let rsaJSON = rsa.map {
                #","rsaSigning":{"swiftCryptoSignsPerSecond":\#(Int($0.swiftCrypto)),"systemSignsPerSecond":\#($0.system.map { String(Int($0)) } ?? "null")}"#
            }
            print(
                #"{"tokensPerSecond":\#(Int(result.tokensPerSecond)),"rawRSAVerifiesPerSecond":\#(Int(result.rawRSAVerifiesPerSecond)),"ratio":\#(String(format: "%.3f", ratio)),"algorithms":{\#(algorithms.joined(separator: ","))},"rsaImplementation":"\#(RSAImplementationRates.serviceImplementation)"\#(rsaJSON ?? "")}"#
            )
        } else {
            print("media tokens verified/s:   \(Int(result.tokensPerSecond))")
            print("raw RSA-2048 verifies/s:   \(Int(result.rawRSAVerifiesPerSecond))")
            print("ratio (goal >= 0.9):       \(String(format: "%.3f", ratio))")
            for rate in rates {
                let name = rate.algorithm.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                print("\(name) raw signs/s: \(Int(rate.signsPerSecond))   verifies/s: \(Int(rate.verifiesPerSecond))")
            }
            print("media tokens are signed by: \(RSAImplementationRates.serviceImplementation)")
            if let rsa {
                print("RSA-2048 signs/s, swift-crypto: \(Int(rsa.swiftCrypto))   system libcrypto: \(rsa.system.map { String(Int($0)) } ?? "absent")")
            }
        }
    }
}
