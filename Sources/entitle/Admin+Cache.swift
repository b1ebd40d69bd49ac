import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// `entitle admin cache flush`: every instance drops its in-memory catalog and MVPD authorization answers.
    struct Cache: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drop what every instance keeps in memory.", subcommands: [Flush.self])

        struct Flush: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Every instance drops its cached catalog and MVPD authorization answers (within the catalog refresh bound).")
            @OptionGroup var admin: AdminStorageOptions

            func run() async throws {
                let version = try await Admin.withService(admin) { try await $0.cacheFlush.flush(actor: Admin.cliActor) }
                print("caches flushed (catalog version \(version))")
            }
        }
    }

    /// `entitle admin authz-ttl set|list`: how long MVPD authorization answers are kept, per MVPD or per requestor.
    struct AuthorizationTTL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authz-ttl", abstract: "MVPD authorization TTLs.",
            subcommands: [Set.self, List.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Keep an MVPD's authorization answers for SECONDS (0: never).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "Only for this requestor (default: every requestor).") var requestor: String?
            @Option(help: "Seconds.") var seconds: Int64

            func run() async throws {
                try await Admin.withService(admin) { service in
                    try await service.integrations.setAuthorizationTTL(mvpd: mvpd, requestor: requestor, seconds: seconds, actor: Admin.cliActor)
                }
                print("authorization TTL of \(requestor ?? AuthorizationTTLRecord.anyRequestor)/\(mvpd): \(seconds) s")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the configured TTLs (requestor, MVPD, seconds).")
            @OptionGroup var admin: AdminStorageOptions

            func run() async throws {
                let records = try await Admin.withService(admin) { try await $0.integrations.authorizationTTLs() }
                for record in records { print("\(record.requestorId)\t\(record.mvpdId)\t\(record.ttlSeconds)") }
            }
        }
    }
}
