import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Admin {
    /// `entitle admin operator`: the accounts of the admin API and console.
    struct Operator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Operator accounts of the admin API and console (read-only or read-write).",
            subcommands: [Add.self, List.self, Scope.self, Disable.self, Enable.self, Password.self, Unlock.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create an operator account.",
                discussion: "The password is read from standard input when it is not a terminal (one line), else prompted twice.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String
            @Option(help: "read-only or read-write.") var role: String
            @OptionGroup var scope: ScopeOptions

            func validate() throws {
                guard OperatorRole(rawValue: role).isKnown else { throw ValidationError("--role must be read-only or read-write.") }
            }

            func run() async throws {
                let password = try Operator.readPassword()
                let scope = self.scope.scope
                let record = try await Admin.withService(admin) { service in
                    try await service.operatorChanges.add(
                        username: username, role: OperatorRole(rawValue: role), password: password, scope: scope, actor: Admin.cliActor)
                }
                print("operator \(record.username) added (\(record.role), scope \(scope.summary))")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List operator accounts.")
            @OptionGroup var admin: AdminStorageOptions
            @Flag(help: "Print JSON.") var json = false

            func run() async throws {
                let views = try await Admin.withService(admin) { try await $0.operatorChanges.views() }
                if json { return print(try Admin.Requestor.json(views)) }
                for view in views {
                    print(
                        "\(view.username)\t\(view.role)\t\(view.disabled ? "disabled" : "active")\t\(view.createdAt)\t\((view.scope ?? OperatorScope()).summary)"
                    )
                }
            }
        }

        /// The scope options of `operator add` and `operator scope`.
        struct ScopeOptions: ParsableArguments {
            @Option(
                name: .customLong("requestor"),
                help: "Limit the operator to this requestor: its integrations, apps, clients, degradation rules and reports (repeat for several).")
            var requestors: [String] = []
            @Option(
                name: .customLong("mvpd"),
                help: "Limit the operator to this MVPD (a partner): its settings, integrations and reports (repeat for several).")
            var mvpds: [String] = []

            /// The scope given; unscoped without either option.
            var scope: OperatorScope { OperatorScope(requestors: requestors, mvpds: mvpds) }
        }

        struct Scope: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Limit an operator to some requestors and/or MVPDs, or lift every limit (--unscoped).",
                discussion: "The new scope replaces the old one; the account's sessions see it on their next request. Recorded as operator.scope.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String
            @OptionGroup var scope: ScopeOptions
            @Flag(help: "Lift every limit: the operator reaches every requestor and MVPD.") var unscoped = false

            func validate() throws {
                guard unscoped != !scope.scope.isUnscoped else {
                    throw ValidationError("Give --requestor and/or --mvpd, or --unscoped.")
                }
            }

            func run() async throws {
                let scope = self.scope.scope
                try await Admin.withService(admin) { try await $0.operatorChanges.setScope(username: username, scope, actor: Admin.cliActor) }
                print("operator \(username) scope: \(scope.summary)")
            }
        }

        struct Disable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Disable an account: it cannot sign in, its sessions end at once.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.operatorChanges.setDisabled(username: username, true, actor: Admin.cliActor) }
                print("operator \(username) disabled")
            }
        }

        struct Enable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Enable a disabled account again.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.operatorChanges.setDisabled(username: username, false, actor: Admin.cliActor) }
                print("operator \(username) enabled")
            }
        }

        struct Password: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Set a new password (read as by `operator add`); the account's sessions end.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String

            func run() async throws {
                let password = try Operator.readPassword()
                try await Admin.withService(admin) {
                    try await $0.operatorChanges.setPassword(username: username, password: password, actor: Admin.cliActor)
                }
                print("password of \(username) changed")
            }
        }

        struct Unlock: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Lift an account's sign-in locks: forget its failed attempts from every address.",
                discussion:
                    "Five failed sign-ins for one account from one address lock it from that address for 15 minutes; twenty from one address lock that address. Counted in the database, shared by every instance."
            )
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String

            func run() async throws {
                let forgotten = try await Admin.withService(admin) {
                    try await $0.operatorChanges.unlock(username: username, actor: Admin.cliActor)
                }
                print("operator \(username) unlocked (\(forgotten) failed attempt\(forgotten == 1 ? "" : "s") forgotten)")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove an operator account and its sessions.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Login name.") var username: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.operatorChanges.remove(username: username, actor: Admin.cliActor) }
                print("operator \(username) removed")
            }
        }

        /// The password: one line of standard input when it is not a terminal, else prompted twice without echo.
        static func readPassword() throws -> String {
            guard isatty(STDIN_FILENO) != 0 else {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    throw AdminFailure.exit("no password on standard input (one line)")
                }
                return line
            }
            guard let first = getpass("Password: ").map({ String(cString: $0) }),
                let second = getpass("Password again: ").map({ String(cString: $0) })
            else { throw AdminFailure.exit("no password given") }
            guard first == second else { throw AdminFailure.exit("the passwords differ") }
            return first
        }
    }
}
