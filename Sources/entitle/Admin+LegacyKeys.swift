import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin legacy-key`: requestor key pairs for the REST API v1 HMAC `Authorization` header.
    struct LegacyKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "legacy-key",
            abstract: "Issue, list or revoke requestor key pairs for the REST API v1 HMAC header.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Issue a key pair: prints the public key, then the private key (shown once; give it to the app's developer only).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as REF.") var requestor: String

            func run() async throws {
                let pair = try await Admin.withService(admin) {
                    try await $0.keyOperations.issueLegacyKeyPair(requestor: requestor, actor: Admin.cliActor)
                }
                print("public_key: \(pair.publicKey)")
                print("private_key: \(pair.privateKey)")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the key pairs of a requestor (public keys only).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as MYNET.") var requestor: String

            func run() async throws {
                let keys = try await Admin.withService(admin) { try await $0.keyOperations.legacyAppKeys(requestor: requestor) }
                for key in keys {
                    let created = Date(timeIntervalSince1970: Double(key.createdAt) / 1000).ISO8601Format()
                    print("\(key.publicKey)\t\(key.requestorId)\t\(created)\t\(key.revoked ? "revoked" : "active")")
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a key pair: requests signed with it are refused at once.")
            @OptionGroup var admin: AdminStorageOptions
            @Argument(help: "The public key.") var publicKey: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.keyOperations.revokeLegacyAppKey(publicKey: publicKey, actor: Admin.cliActor) }
                print("revoked \(publicKey)")
            }
        }
    }
}
