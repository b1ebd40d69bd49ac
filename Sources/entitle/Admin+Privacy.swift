import ArgumentParser
import EntitleDomain
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin privacy export|erase`: what the service holds about one device or one MVPD user.
    struct Privacy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Privacy requests: export or erase what the service holds about one device or one MVPD user.",
            discussion: "Each request is recorded in the changes log with its reason and a keyed hash of the identifier, never the identifier.",
            subcommands: [Export.self, Erase.self])

        /// Whom a request is about.
        struct Selector: ParsableArguments {
            @Option(help: "The device id, as the app sends it in AP-Device-Identifier (decoded).") var deviceId: String?
            @Option(help: "The MVPD user id (the profile's userID).") var userId: String?
            @Option(help: "Only the records of this requestor (default: every requestor).") var requestor: String?
            @Option(help: "Why (recorded in the changes log, without the identifier).") var reason: String

            func validate() throws {
                guard (deviceId == nil) != (userId == nil) else { throw ValidationError("Give one of --device-id or --user-id.") }
            }

            var subject: PrivacySubject {
                if let deviceId { return PrivacySubject(kind: .device, identifier: deviceId, requestor: requestor) }
                return PrivacySubject(kind: .user, identifier: userId ?? "", requestor: requestor)
            }
        }

        static func printJSON(_ value: some Encodable) throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        }

        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print as JSON everything held about a device or an MVPD user (profiles, sessions, TempPass, grants, …).")
            @OptionGroup var admin: AdminStorageOptions
            @OptionGroup var selector: Selector

            func run() async throws {
                let export = try await Admin.withService(admin) {
                    try await $0.privacy.export(selector.subject, reason: selector.reason, actor: Admin.cliActor)
                }
                try Privacy.printJSON(export)
            }
        }

        struct Erase: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove everything held about a device or an MVPD user from every store; prints what was removed as JSON.",
                discussion: """
                    Other instances stop using the removed profiles within the profile feed's bound. SQLite: removed rows are \
                    overwritten (secure_delete) and the write-ahead log is checkpointed and truncated. PostgreSQL: the touched \
                    tables are vacuumed. --vacuum also rebuilds the SQLite file (VACUUM) or runs VACUUM FULL on PostgreSQL.
                    """)
            @OptionGroup var admin: AdminStorageOptions
            @OptionGroup var selector: Selector
            @Flag(help: "Also rebuild the database file (SQLite VACUUM; PostgreSQL VACUUM FULL of the touched tables).") var vacuum = false

            func run() async throws {
                let result = try await Admin.withService(admin) {
                    try await $0.privacy.erase(selector.subject, reason: selector.reason, vacuum: vacuum, actor: Admin.cliActor)
                }
                try Privacy.printJSON(result)
            }
        }
    }
}
