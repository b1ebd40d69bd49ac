import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Logging
import SQLKit

/// The database a previous release wrote (`Fixtures/previous-release.sqlite`, made by `Tests/Support/make-upgrade-fixture.sh`)
/// and what the script recorded about it (`previous-release.json`).
struct UpgradeFixture: Decodable {
    /// The commit whose binary wrote the fixture.
    let madeBy: String
    /// The requestor, MVPD, client (with its secret), device and user the script signed in.
    let requestor: String
    let mvpd: String
    let clientID: String
    let clientSecret: String
    let deviceID: String
    let userID: String
    /// How many certificates `/keys/media-token` published.
    let mediaTokenCertificates: Int
    /// When the fixture was made (milliseconds since 1970): the tests run the service's clock from there.
    let madeAt: Int64

    static let folder = DeviceCommandTests.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures")

    /// The manifest.
    static func load() throws -> UpgradeFixture {
        try JSONDecoder().decode(UpgradeFixture.self, from: Data(contentsOf: folder.appendingPathComponent("previous-release.json")))
    }

    /// A new data directory holding a copy of the fixture's database (owner-only, as the service keeps it).
    static func copyIntoDataDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "entitle-upgrade-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = directory + "/entitle.sqlite"
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("previous-release.sqlite").path, toPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        return directory
    }

    /// Tables whose rows are transient by design (a change feed, a counter): the others must keep every row.
    static let transientTables: Set<String> = ["profile_changes", "catalog_version", "rate_buckets"]

    /// Every row of every table, as SQL literals joined per row, by table; only `columns` when given (a later
    /// migration may add columns).
    static func rows(_ sql: any SQLDatabase, columns: [String: [String]]? = nil) async throws -> [String: Set<String>] {
        let tables = try await sql.raw(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ).all(decodingColumn: "name", as: String.self)
        var result: [String: Set<String>] = [:]
        for table in tables where !transientTables.contains(table) {
            let names = try await tableColumns(sql, table)
            let wanted = columns?[table] ?? names
            guard !wanted.isEmpty else { continue }
            let expression = wanted.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
            let rows = try await sql.raw(SQLQueryString("SELECT \(unsafeRaw: expression) AS r FROM \"\(unsafeRaw: table)\"")).all(
                decodingColumn: "r", as: String.self)
            result[table] = Set(rows)
        }
        return result
    }

    /// The column names of a table.
    static func tableColumns(_ sql: any SQLDatabase, _ table: String) async throws -> [String] {
        try await sql.raw(SQLQueryString("PRAGMA table_info(\"\(unsafeRaw: table)\")")).all(decodingColumn: "name", as: String.self)
    }

    /// Runs `body` on an SQLite engine over `dataDirectory`'s database, closed afterwards.
    static func withDatabase<T>(_ dataDirectory: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let engine = try await DatabaseEngine.sqlite(path: dataDirectory + "/entitle.sqlite", logger: Logger(label: "test"))
        do {
            let result = try await body(engine.sql)
            try await engine.close()
            return result
        } catch {
            try? await engine.close()
            throw error
        }
    }

    /// Runs today's service (no demo world) on SQLite in `dataDirectory`, on a free loopback port, until `body` returns.
    static func serve(_ dataDirectory: String, clock: ManualClock, _ body: (EntitleHost, String) async throws -> Void) async throws {
        var configuration = HostConfiguration()
        configuration.dataDirectory = dataDirectory
        configuration.demo = false
        configuration.rateLimitPerSecond = 0
        configuration.catalogRefresh = .zero
        configuration.port = try freePort()
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        try await EntitleHost.serveOnce(configuration: configuration, logger: logger, clock: clock) { host in
            try await body(host, host.configuration.baseURL)
        }
    }
}
