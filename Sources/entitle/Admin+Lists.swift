import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin.SoftwareStatement {
    /// `entitle admin software-statement list`: every software statement, one per line.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List software statements: software_id, requestor (- for a proxy's web-service statement), status, issued, name, redirect URIs (and server-to-server)."
        )
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Only this requestor's statements.") var requestor: String?
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let statements = try await Admin.withService(admin) { try await $0.applications.softwareStatements(requestor: requestor) }
            if json { return print(try Admin.Requestor.json(statements.map(SoftwareStatementView.init))) }
            for s in statements {
                print(
                    [
                        s.softwareId, s.requestorId.isEmpty ? "-" : s.requestorId, s.revoked ? "revoked" : "active", Admin.date(seconds: s.issuedAt),
                        s.name,
                        s.redirectURIs.joined(separator: ","),
                    ].joined(separator: "\t") + (s.serverToServer ? "\tserver-to-server" : ""))
            }
        }
    }
}

extension Admin.Client {
    /// `entitle admin client list`: registered clients, newest first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List registered clients (newest first): client_id, software_id, requestor, status, registered.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Only clients registered with this software statement.") var softwareID: String?
        @Option(help: "At most this many lines.") var limit = 100
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be 1…100000.") }
        }

        func run() async throws {
            let clients = try await Admin.withService(admin) {
                try await $0.applications.registeredClients(softwareID: softwareID, limit: limit)
            }
            if json { return print(try Admin.Requestor.json(clients.map(ClientView.init))) }
            for c in clients {
                print(
                    [c.clientId, c.softwareId, c.requestorId, c.revoked ? "revoked" : "active", Admin.date(seconds: c.issuedAt)]
                        .joined(separator: "\t"))
            }
        }
    }
}

extension Admin {
    /// An ISO 8601 date of a time in seconds.
    static func date(seconds: Int64) -> String { Date(timeIntervalSince1970: Double(seconds)).ISO8601Format() }
}

/// How `entitle admin` fails: a plain message on standard error and exit status 1 (usage errors keep their 64).
enum AdminFailure {
    /// Prints `entitle admin: message` and returns the exit code to throw.
    static func exit(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("entitle admin: \(message)\n".utf8))
        return ExitCode(1)
    }

    /// Fails unless the options name a service's storage: a PostgreSQL URL, or a data directory with its database.
    /// Admin never creates an empty data directory. Returns the settings in effect.
    @discardableResult
    static func requireService(_ storage: StorageOptions) throws -> StorageOptions.Effective {
        let effective: StorageOptions.Effective
        do { effective = try storage.effective() } catch { throw exit("\(error)") }
        // PostgreSQL from the option, its file, the environment or the configuration file: no data directory to check.
        guard !effective.usesPostgreSQL else { return effective }
        let database = (effective.dataDir as NSString).appendingPathComponent("entitle.sqlite")
        guard FileManager.default.fileExists(atPath: database) else {
            let path = URL(fileURLWithPath: effective.dataDir).standardizedFileURL.path
            throw exit(
                """
                no Entitle service data in \(path) (no entitle.sqlite there).
                Point at the service's data directory with --data-dir DIR or ENTITLE_DATA_DIR=DIR (`entitle serve` prints it), \
                at its configuration with --config FILE or ENTITLE_CONFIG=FILE, or at its database with --database-url; or start one with `entitle serve --data-dir DIR`.
                """)
        }
        return effective
    }
}
