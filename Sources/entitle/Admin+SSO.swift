import ArgumentParser
import EntitleDomain
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin sso`: issuers of single sign-on tokens — Fire TV (`Adobe-Subject-Token`), Roku
    /// (`X-Roku-Reserved-Roku-Connect-Token`) and a network's service tokens (`AD-Service-Token`).
    struct SSO: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sso",
            abstract: "Register, list or remove the issuers of single sign-on tokens (Fire TV, Roku, service tokens).",
            subcommands: [Add.self, List.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Register an issuer (or replace the one with this id): its tokens' iss, the keys that verify them, the requestors that share its identities."
            )
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "The issuer's id, such as roku or mynet-accounts.") var id: String
            @Option(help: "amazon (Adobe-Subject-Token), roku (X-Roku-Reserved-Roku-Connect-Token) or service-token (AD-Service-Token).")
            var type: String
            @Option(help: "The iss claim of its tokens.") var issuer: String
            @Option(
                name: .customLong("public-key"),
                help: "A PEM file with the issuer's public key or certificate (RSA 2048+ or EC P-256); repeat for several.")
            var publicKeyFiles: [String] = []
            @Option(name: .customLong("jwks-url"), help: "Where the issuer publishes its keys as a JWKS (https).") var jwksURL: String?
            @Option(help: "The aud its tokens carry (default for service tokens: adobe; platform tokens: not checked).") var audience: String?
            @Option(name: .customLong("requestor"), help: "A requestor whose apps share the identities; repeat for several.")
            var requestors: [String] = []

            func run() async throws {
                var keys: [String] = []
                for file in publicKeyFiles {
                    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw AdminFailure.exit("cannot read \(file)") }
                    keys.append(text)
                }
                let view = try await Admin.withService(admin) { service in
                    try await service.ssoIssuers.add(
                        SSOOperations.Registration(
                            id: id, type: type, issuer: issuer, publicKeys: keys, jwksURL: jwksURL, audience: audience, requestors: requestors),
                        actor: Admin.cliActor)
                }
                print(
                    "registered \(view.id): \(view.type) tokens from \(view.issuer) in \(view.header), for \(view.requestors.joined(separator: ", "))"
                )
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the registered issuers (keys by fingerprint).")
            @OptionGroup var admin: AdminStorageOptions
            @Flag(help: "Print JSON.") var json = false

            func run() async throws {
                let issuers = try await Admin.withService(admin) { try await $0.ssoIssuers.issuers() }
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    print(String(decoding: try encoder.encode(issuers), as: UTF8.self))
                    return
                }
                for issuer in issuers {
                    let keys = issuer.publicKeys + (issuer.jwksUrl.map { ["jwks \($0)"] } ?? [])
                    print(
                        [
                            issuer.id, issuer.type, issuer.issuer, "aud=\(issuer.effectiveAudience ?? "-")", issuer.requestors.joined(separator: ","),
                            keys.joined(separator: "; "),
                        ].joined(separator: "\t"))
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Remove an issuer: its tokens stop finding shared sign-ins at once, and the sign-ins shared under its identities are forgotten.")
            @OptionGroup var admin: AdminStorageOptions
            @Argument(help: "The issuer's id.") var id: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.ssoIssuers.remove(id: id, actor: Admin.cliActor) }
                print("removed \(id)")
            }
        }
    }
}
