import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation

extension Admin {
    /// `entitle admin cache flush`: every instance drops its in-memory catalog and MVPD authorization answers.
    struct Cache: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drop what every instance keeps in memory.", subcommands: [Flush.self])

        struct Flush: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Every instance drops its cached catalog and MVPD authorization answers (within the catalog refresh bound).")
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let version = try await Admin.withService(storage) { service in
                    try await service.repository.catalogChanged()
                    try await Admin.record(service, "cache.flush", "all")
                    return try await service.repository.catalogVersion()
                }
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
            @OptionGroup var storage: StorageOptions
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "Only for this requestor (default: every requestor).") var requestor: String?
            @Option(help: "Seconds.") var seconds: Int64

            func run() async throws {
                guard seconds >= 0, seconds <= 7 * 86_400 else { throw ValidationError("--seconds must be between 0 and 604800.") }
                let requestor = self.requestor ?? AuthorizationTTLRecord.anyRequestor
                try await Admin.withService(storage) { service in
                    guard try await service.repository.catalog.mvpd(id: mvpd) != nil else { throw ValidationError("Unknown MVPD \(mvpd).") }
                    let before = try await service.repository.catalog.authorizationTTLs().first { $0.requestorId == requestor && $0.mvpdId == mvpd }
                    try await service.repository.catalog.setAuthorizationTTL(
                        AuthorizationTTLRecord(requestorId: requestor, mvpdId: mvpd, ttlSeconds: seconds))
                    try await Admin.record(
                        service, "authz-ttl.set", "\(requestor)/\(mvpd)", before: before.map { ["seconds": $0.ttlSeconds] },
                        after: ["seconds": seconds])
                }
                print("authorization TTL of \(requestor)/\(mvpd): \(seconds) s")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the configured TTLs (requestor, MVPD, seconds).")
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                let records = try await Admin.withService(storage) { try await $0.repository.catalog.authorizationTTLs() }
                for record in records { print("\(record.requestorId)\t\(record.mvpdId)\t\(record.ttlSeconds)") }
            }
        }
    }
}
