import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// Who the CLI records in the changes log: `cli:<user>` (the login name of the process).
    static var cliActor: String {
        let environment = ProcessInfo.processInfo.environment
        let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LOGNAME"] ?? NSUserName()
        return "cli:" + (user.isEmpty ? "unknown" : user)
    }

    /// Records a change made by this CLI process in the changes log.
    static func record(
        _ service: EntitleService, _ action: String, _ target: String, before: (any Encodable & Sendable)? = nil,
        after: (any Encodable & Sendable)? = nil
    ) async throws {
        try await service.changes.record(actor: cliActor, action: action, target: target, before: before, after: after)
    }

    /// `entitle admin changes list`: who changed what, when, and the values before and after.
    struct Changes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read the changes log.", subcommands: [List.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the changes log, oldest first.")
            @OptionGroup var storage: StorageOptions
            @Option(help: "Only changes from this time on, ISO 8601.") var since: String?
            @Flag(help: "Print JSON.") var json = false

            func run() async throws {
                let from = try since.map(Admin.parseDate).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? 0
                let changes = try await Admin.withService(storage) { try await $0.changes.recorded(since: from) }
                if json {
                    print(try Admin.Requestor.json(changes))
                    return
                }
                for change in changes {
                    let at = Date(timeIntervalSince1970: Double(change.at) / 1000).ISO8601Format()
                    print("\(at)\t\(change.actor)\t\(change.action)\t\(change.target)\t\(change.valueBefore ?? "-")\t\(change.valueAfter ?? "-")")
                }
            }
        }
    }
}
