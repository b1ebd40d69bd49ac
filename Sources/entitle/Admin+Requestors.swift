import ArgumentParser
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin.Requestor {
    /// The settings of `requestor add` and `requestor update`, shared so more fit in later.
    struct Settings: ParsableArguments {
        @Option(help: "Display name (required by add).") var name: String?
        @Option(help: "Web domain of the programmer's sites (repeat for several; update replaces the list).") var domain: [String] = []
        @Option(help: "PEM file: the programmer's certificate (or RSA public key) that encrypts user metadata.")
        var programmerCertificate: String?
        @Option(help: "Most resources accepted in one preflight or decisions request (default: 5).") var maxResources: Int64?
        @Option(
            help: ArgumentHelp(
                "Profile (authentication) lifetime, seconds, of the integrations that set none (default: each MVPD's own).",
                discussion: "update: 0 removes the default."))
        var defaultProfileTTL: Int64?
        @Option(
            help: ArgumentHelp(
                "How long MVPD authorization answers are kept, seconds, for the integrations that set none (default: each MVPD's own).",
                discussion: "0 asks the MVPD every time; update: none removes the default.", valueName: "seconds|none"))
        var defaultAuthzTTL: DefaultAuthorizationTTL?
        @Option(
            help: ArgumentHelp(
                "Most resources per preflight call to an XACML or REST MVPD, for the integrations that set none (default: off).",
                discussion: "update: 0 removes the default."))
        var defaultPreflightMaxResources: Int64?

        func certificatePEM() throws -> String? {
            guard let programmerCertificate else { return nil }
            guard let pem = try? String(contentsOfFile: programmerCertificate, encoding: .utf8) else {
                throw AdminFailure.exit("cannot read \(programmerCertificate)")
            }
            return pem
        }
    }

    /// `entitle admin requestor add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a requestor (a channel of the programmer).")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Requestor id, such as MYNET.") var id: String
        @OptionGroup var settings: Settings

        func run() async throws {
            guard let name = settings.name else { throw ValidationError("Give --name.") }
            let record = RequestorRecord(
                id: id, name: name, domains: settings.domain, maxResources: settings.maxResources ?? 5,
                metadataCertificatePem: try settings.certificatePEM(), defaultProfileTtlSeconds: settings.defaultProfileTTL,
                defaultAuthzTtlSeconds: settings.defaultAuthzTTL?.seconds, defaultPreflightMaxResources: settings.defaultPreflightMaxResources)
            try await Admin.withService(admin) { try await $0.requestors.add(record, actor: Admin.cliActor) }
            print("requestor \(id) added")
        }
    }

    /// `entitle admin requestor update`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a requestor's name, domains, certificate, limits or defaults for its integrations.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Requestor id.") var id: String
        @OptionGroup var settings: Settings
        @Flag(help: "Remove the programmer certificate.") var removeProgrammerCertificate = false

        func run() async throws {
            let pem = try settings.certificatePEM()
            if removeProgrammerCertificate && pem != nil {
                throw ValidationError("--programmer-certificate and --remove-programmer-certificate exclude each other.")
            }
            try await Admin.withService(admin) { service in
                guard var record = try await service.requestors.requestor(id: id) else {
                    throw AdminFailure.exit("no requestor \(id) (list them with `entitle admin requestor list`)")
                }
                if let name = settings.name { record.name = name }
                if !settings.domain.isEmpty { record.domains = settings.domain }
                if let max = settings.maxResources { record.maxResources = max }
                if let pem { record.metadataCertificatePem = pem }
                if removeProgrammerCertificate { record.metadataCertificatePem = nil }
                if let ttl = settings.defaultProfileTTL { record.defaultProfileTtlSeconds = ttl == 0 ? nil : ttl }
                if let ttl = settings.defaultAuthzTTL { record.defaultAuthzTtlSeconds = ttl.seconds }
                if let limit = settings.defaultPreflightMaxResources { record.defaultPreflightMaxResources = limit == 0 ? nil : limit }
                try await service.requestors.update(record, actor: Admin.cliActor)
            }
            print("requestor \(id) updated")
        }
    }

    /// `entitle admin requestor list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List requestors.")
        @OptionGroup var admin: AdminStorageOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let views = try await Admin.withService(admin) { try await $0.requestors.views() }
            if json {
                print(try Admin.Requestor.json(views))
            } else {
                for r in views { print("\(r.id)\t\(r.name)\t\(r.domains.joined(separator: ","))\(r.disabled ? "\tdisabled" : "")") }
            }
        }
    }

    /// `entitle admin requestor show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one requestor as JSON, with its integrations.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Requestor id.") var id: String

        func run() async throws {
            print(try Admin.Requestor.json(try await Admin.withService(admin) { try await $0.requestors.view(id: id) }))
        }
    }

    /// `entitle admin requestor disable`.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable a requestor: every protocol treats it as unknown (within the catalog bound) until enabled again.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Requestor id.") var id: String

        func run() async throws {
            try await Admin.withService(admin) { try await $0.requestors.setDisabled(id: id, true, actor: Admin.cliActor) }
            print("requestor \(id) disabled")
        }
    }

    /// `entitle admin requestor enable`.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled requestor again.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Requestor id.") var id: String

        func run() async throws {
            try await Admin.withService(admin) { try await $0.requestors.setDisabled(id: id, false, actor: Admin.cliActor) }
            print("requestor \(id) enabled")
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// `--default-authz-ttl`: seconds, or `none` (no default: each MVPD's own).
struct DefaultAuthorizationTTL: ExpressibleByArgument {
    /// The seconds; nil for `none`.
    let seconds: Int64?

    init?(argument: String) {
        if argument == "none" {
            seconds = nil
        } else if let value = Int64(argument) {
            seconds = value
        } else {
            return nil
        }
    }
}
