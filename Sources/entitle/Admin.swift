import ArgumentParser
import EntitleHost
import EntitleServer
import Foundation
import Logging

/// `entitle admin`: software statements, clients, MVPDs and keys, working directly on the service's storage.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Administer the service's storage: software statements, clients, MVPDs, keys.",
        subcommands: [SoftwareStatement.self, Client.self, MVPD.self, Keys.self, Degradation.self, TempPass.self]
    )

    /// Opens the service's storage without seeding anything.
    static func withService<T>(_ storage: StorageOptions, _ body: (EntitleService) async throws -> T) async throws -> T {
        var logger = Logger(label: "entitle.admin")
        logger.logLevel = .warning
        var configuration = storage.hostConfiguration()
        configuration.demo = false
        let host = try await EntitleHost.prepare(configuration: configuration, logger: logger)
        do {
            let result = try await body(host.service)
            await host.shutdown()
            return result
        } catch {
            await host.shutdown()
            throw error
        }
    }

    struct SoftwareStatement: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "software-statement", abstract: "Issue or revoke software statements.",
                                                        subcommands: [Create.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Issue a signed software statement; prints the JWT.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Requestor id, such as REF.") var requestor: String
            @Option(help: "Application name.") var name: String
            @Option(name: .customLong("redirect-uri"), help: "Allowed redirect URI (repeat for several).") var redirectURIs: [String] = []

            func run() async throws {
                let (id, jwt) = try await Admin.withService(storage) {
                    try await $0.issueSoftwareStatement(requestor: requestor, name: name, redirectURIs: redirectURIs)
                }
                FileHandle.standardError.write(Data("software_id: \(id)\n".utf8))
                print(jwt)
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a software statement: its clients stop working.")
            @OptionGroup var storage: StorageOptions
            @Argument(help: "The software_id.") var softwareID: String

            func run() async throws {
                guard try await Admin.withService(storage, { try await $0.repository.revokeSoftwareStatement(id: softwareID) }) else {
                    throw ValidationError("No software statement \(softwareID).")
                }
                print("revoked \(softwareID)")
            }
        }
    }

    struct Client: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke registered clients.", subcommands: [Revoke.self])

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a client: its access tokens stop working.")
            @OptionGroup var storage: StorageOptions
            @Argument(help: "The client_id.") var clientID: String

            func run() async throws {
                guard try await Admin.withService(storage, { try await $0.repository.revokeClient(id: clientID) }) else {
                    throw ValidationError("No client \(clientID).")
                }
                print("revoked \(clientID)")
            }
        }
    }

    struct MVPD: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add and list MVPD integrations.", subcommands: [Add.self, List.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add or update a SAML 2.0 MVPD from its IdP metadata XML.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "MVPD id.") var id: String
            @Option(help: "Display name.") var name: String
            @Option(help: "IdP SAML metadata XML file.") var samlMetadata: String
            @Option(help: "Logo URL.") var logoURL = ""
            @Option(help: "Authorization API URL.") var authorizationURL: String?
            @Option(help: "Authorization API bearer key (visible in ps: prefer --authorization-key-file).") var authorizationKey: String?
            @Option(help: "File holding the authorization API bearer key.") var authorizationKeyFile: String?
            @Option(help: "Requestor to integrate with (repeat for several).") var requestor: [String] = []
            @Option(help: "User-metadata attribute to deliver encrypted (repeat).") var encrypt: [String] = []
            @Option(name: .customLong("attribute"),
                    help: "KEY=SAML-ATTRIBUTE-NAME: read user metadata KEY from that attribute (or KEY=NameID); repeat. Common names are mapped by default.")
            var attributes: [String] = []
            @Flag(help: "Accept RSA-SHA1 signatures from this legacy IdP (insecure; logged as a warning).") var allowRsaSha1 = false
            @Flag(help: "Without --authorization-url: authorize every authenticated subscriber of this MVPD.") var authorizeAll = false

            func validate() throws {
                _ = try SAMLAttributeMapping.parse(attributes)
                if authorizationKey != nil && authorizationKeyFile != nil { throw ValidationError("Give --authorization-key or --authorization-key-file, not both.") }
                if authorizeAll && authorizationURL != nil { throw ValidationError("--authorize-all and --authorization-url exclude each other.") }
            }

            func run() async throws {
                let xml: String
                do { xml = try String(contentsOfFile: samlMetadata, encoding: .utf8) } catch {
                    throw ValidationError("Cannot read \(samlMetadata).")
                }
                var key = authorizationKey
                if let authorizationKeyFile {
                    guard let text = try? String(contentsOfFile: authorizationKeyFile, encoding: .utf8) else {
                        throw ValidationError("Cannot read \(authorizationKeyFile).")
                    }
                    key = text.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                var options = EntitleService.MVPDOptions(displayName: name, logoURL: logoURL, authorizationURL: authorizationURL,
                                                         authorizationKey: key)
                options.encryptedAttributes = encrypt
                options.attributeMapping = try SAMLAttributeMapping.parse(attributes)
                options.allowRSASHA1 = allowRsaSha1
                options.authorizeAllAuthenticated = authorizeAll
                if allowRsaSha1 {
                    FileHandle.standardError.write(Data("warning: RSA-SHA1 signatures accepted from \(id); SHA-1 is broken, ask the MVPD for RSA-SHA256.\n".utf8))
                }
                let metadata = try await Admin.withService(storage) {
                    try await $0.importSAMLMVPD(id: id, metadataXML: xml, options: options, requestors: requestor)
                }
                print("MVPD \(id): entity \(metadata.entityID), SSO \(metadata.singleSignOnRedirectURL), \(metadata.signingCertificates.count) certificate(s)")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List MVPDs.")
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let mvpds = try await Admin.withService(storage) { try await $0.repository.allMVPDs() }
                for mvpd in mvpds { print("\(mvpd.id)\t\(mvpd.kind)\t\(mvpd.displayName)\t\(mvpd.entityId ?? "-")") }
            }
        }
    }

    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rotate signing keys.", subcommands: [Rotate.self])

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Rotate a key; the previous media-token key stays published for 24 hours.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "media-token, jwt or saml-sp.") var purpose = "media-token"

            func run() async throws {
                guard ["media-token", "jwt", "saml-sp"].contains(purpose) else { throw ValidationError("Unknown purpose \(purpose).") }
                let key = try await Admin.withService(storage) { try await $0.keys.rotate(purpose: purpose) }
                print("new \(purpose) key \(key.kid)")
            }
        }
    }

    struct Degradation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Degraded access rules per (requestor, MVPD).",
                                                        subcommands: [Set.self, List.self, Remove.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Apply authn-all, authz-all or authz-none for a time window.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Requestor id.") var requestor = "REF"
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "authn-all, authz-all or authz-none.") var rule: String
            @Option(help: "Start, ISO 8601 (default: now).") var start: String?
            @Option(help: "End, ISO 8601 (default: start + --minutes).") var end: String?
            @Option(help: "Length in minutes when --end is absent.") var minutes = 60

            func run() async throws {
                let from = try start.map(Admin.parseDate) ?? Date()
                let to = try end.map(Admin.parseDate) ?? from.addingTimeInterval(Double(minutes) * 60)
                try await Admin.withService(storage) {
                    try await $0.setDegradation(requestor: requestor, mvpd: mvpd, rule: rule, start: from, end: to)
                }
                print("\(rule) for \(requestor)/\(mvpd) from \(from.ISO8601Format()) to \(to.ISO8601Format())")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List degradation rules.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Requestor id (default: all).") var requestor: String?

            func run() async throws {
                let rules = try await Admin.withService(storage) { try await $0.repository.degradationRules(requestor: requestor) }
                for rule in rules {
                    let start = Date(timeIntervalSince1970: Double(rule.startsAt) / 1000).ISO8601Format()
                    let end = Date(timeIntervalSince1970: Double(rule.endsAt) / 1000).ISO8601Format()
                    print("\(rule.requestorId)\t\(rule.mvpdId)\t\(rule.rule)\t\(start)\t\(end)")
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a degradation rule.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Requestor id.") var requestor = "REF"
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "authn-all, authz-all or authz-none.") var rule: String

            func run() async throws {
                guard try await Admin.withService(storage, { try await $0.repository.deleteDegradationRule(requestor: requestor, mvpd: mvpd, rule: rule) }) else {
                    throw ValidationError("No such rule.")
                }
                print("removed \(rule) for \(requestor)/\(mvpd)")
            }
        }
    }

    struct TempPass: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "temppass", abstract: "TempPass administration.",
                                                        subcommands: [Add.self, Reset.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add or update a TempPass MVPD; with --resources it is a Promotional TempPass (that many videos per identity).")
            @OptionGroup var storage: StorageOptions
            @Option(help: "MVPD id.") var id: String
            @Option(help: "Display name.") var name: String
            @Option(help: "Logo URL.") var logoURL = ""
            @Option(help: "Length of a pass in minutes.") var minutes = 10
            @Option(help: "Distinct resources per identity (Promotional TempPass; the app sends withData, e.g. an e-mail address).")
            var resources: Int?
            @Option(help: "Requestor to offer it to (repeat for several).") var requestor: [String] = ["REF"]

            func validate() throws {
                guard minutes > 0 && minutes <= 525_600 else { throw ValidationError("--minutes must be 1…525600.") }
                if let resources, resources <= 0 { throw ValidationError("--resources must be positive.") }
                guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                    throw ValidationError("--id may hold letters, digits, _ and - only.")
                }
            }

            func run() async throws {
                try await Admin.withService(storage) {
                    try await $0.saveTempPassMVPD(id: id, displayName: name, logoURL: logoURL, minutes: minutes, resourceLimit: resources,
                                                  requestors: requestor)
                }
                let limit = resources.map { ", \($0) resources per identity" } ?? ""
                print("TempPass \(id): \(minutes) min\(limit), for \(requestor.joined(separator: ", "))")
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Reset the TempPass of a device, of an identity, or of everyone.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Requestor id.") var requestor = "REF"
            @Option(help: "TempPass MVPD id.") var mvpd = "TempPass"
            @Option(help: "Device id (as sent in AP-Device-Identifier, decoded).") var device: String?
            @Option(help: "Identity JSON as the app sends it, e.g. {\"email\":\"<sha-256>\"} (Promotional TempPass).") var identity: String?
            @Flag(help: "Reset every pass of the MVPD.") var all = false

            func validate() throws {
                guard all != (device != nil || identity != nil) else { throw ValidationError("Give --device, --identity or --all.") }
            }

            func run() async throws {
                let count = try await Admin.withService(storage) {
                    try await $0.resetTempPass(requestor: requestor, mvpd: mvpd, device: device, identity: identity)
                }
                print("reset \(count) pass(es)")
            }
        }
    }

    /// Parses an ISO 8601 date.
    static func parseDate(_ text: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else { throw ValidationError("Not an ISO 8601 date: \(text)") }
        return date
    }
}
