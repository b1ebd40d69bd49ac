import ArgumentParser
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin requestor set-media-token-algorithm|media-token-algorithms`: per-requestor media-token signatures.
    struct Requestor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, change and list requestors; per-requestor settings.",
            subcommands: [
                Add.self, Update.self, List.self, Show.self, Disable.self, Enable.self, SetMediaTokenAlgorithm.self, MediaTokenAlgorithms.self,
            ])

        struct SetMediaTokenAlgorithm: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set-media-token-algorithm",
                abstract: "Sign a requestor's media tokens with rsa-sha256 (default), ecdsa-p256-sha256 or ed25519.",
                discussion:
                    "A key of the algorithm is created if there is none: published at /keys/media-token at once, signing after --promote-after (RSA signs the requestor's tokens until then). Update the video servers' verifiers first: verifiers older than this feature refuse a bundle with a non-RSA certificate."
            )
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as REF.") var requestor: String
            @Option(help: "rsa-sha256, ecdsa-p256-sha256 (or ecdsa-p256) or ed25519.") var algorithm: String
            @Option(help: "Seconds a new key is published before it signs (default: 900).") var promoteAfter: Int64?
            @Flag(help: "Allow the new key to sign before video servers' cached key bundles (300 s) can know it.") var force = false

            func run() async throws {
                guard let algorithm = MediaTokenAlgorithm(name: algorithm) else {
                    throw ValidationError("Unknown algorithm \(self.algorithm); use rsa-sha256, ecdsa-p256-sha256 or ed25519.")
                }
                if let promoteAfter, promoteAfter < 0 { throw ValidationError("--promote-after must not be negative.") }
                if algorithm != .rsaSHA256 { try Admin.Keys.checkPromotion(promoteAfter, force: force) }
                let key = try await Admin.withService(admin) { service in
                    try await service.keyOperations.setMediaTokenAlgorithm(
                        requestor: requestor, algorithm, promoteAfter: promoteAfter.map { $0 * 1000 }, actor: Admin.cliActor)
                }
                print("media tokens of \(requestor): \(algorithm.rawValue)")
                if let key {
                    let signsFrom = Date(timeIntervalSince1970: Double(key.signsFrom) / 1000).ISO8601Format()
                    print("\(key.purpose) key \(key.kid) is published; it signs from \(signsFrom) (RSA until then)")
                }
            }
        }

        struct MediaTokenAlgorithms: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "media-token-algorithms",
                abstract: "Print requestors with a non-default media-token algorithm.")
            @OptionGroup var admin: AdminStorageOptions

            func run() async throws {
                let records = try await Admin.withService(admin) { try await $0.keyOperations.mediaTokenAlgorithms() }
                for record in records { print("\(record.requestorId)\t\(record.algorithm)") }
            }
        }
    }
}
