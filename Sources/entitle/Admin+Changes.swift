import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin {
    /// Who the CLI records in the changes log: `cli:<user>` (the login name of the process).
    static var cliActor: String {
        if let reach = OperatorReach.current { return "operator:" + reach.username }
        let environment = ProcessInfo.processInfo.environment
        let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LOGNAME"] ?? NSUserName()
        return "cli:" + (user.isEmpty ? "unknown" : user)
    }

    /// `entitle admin changes list`: who changed what, when, and the values before and after.
    struct Changes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read the changes log.", subcommands: [List.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the changes log: time, who, action, target, before, after, and why (the description given with the change).",
                discussion: "Oldest first unless --newest-first; --limit N keeps the N most recent changes.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Only changes from this time on, ISO 8601.") var since: String?
            @Option(help: "Only the N most recent changes.") var limit: Int?
            @Flag(help: "Newest first.") var newestFirst = false
            @Flag(help: "Print JSON.") var json = false

            func validate() throws {
                if let limit, !(1...100_000).contains(limit) { throw ValidationError("--limit must be 1…100000.") }
            }

            func run() async throws {
                let from = try since.map(Admin.parseDate).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? 0
                let changes = try await Admin.withService(admin) {
                    try await $0.changes.recorded(since: from, limit: limit, newestFirst: newestFirst)
                }
                if json { return print(try Admin.Requestor.json(changes)) }
                for change in changes {
                    let at = Date(timeIntervalSince1970: Double(change.at) / 1000).ISO8601Format()
                    // The why is free text: tabs and line breaks would break the columns.
                    let why = change.description.map { $0.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ") } ?? "-"
                    print(
                        [at, change.actor, change.action, change.target, change.valueBefore ?? "-", change.valueAfter ?? "-", why]
                            .joined(separator: "\t"))
                }
            }
        }
    }
}
