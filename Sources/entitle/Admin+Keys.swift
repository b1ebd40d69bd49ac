import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin.Keys {
    /// `entitle admin keys list`: the service's keys of every purpose (never a private key), as `GET /admin/api/keys`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the service's keys: purpose, kid, state (signing, published, retired), signing from, retired at.")
        @OptionGroup var admin: AdminStorageOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let keys = try await Admin.withService(admin) { try await $0.keyOperations.views() }
            if json { return print(try Admin.Requestor.json(keys)) }
            for key in keys { print([key.purpose, key.kid, key.state, key.signsFrom, key.retiredAt ?? "-"].joined(separator: "\t")) }
        }
    }
}
