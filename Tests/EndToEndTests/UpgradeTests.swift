import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import SQLKit
import Testing

/// Upgrades: today's binary opens a database the previous release wrote (the committed fixture) and keeps everything in
/// it; a database written by a newer binary is refused with a clear message, by `serve` and by `admin`, and left as it was.
@Suite(.serialized, .timeLimit(.minutes(10))) struct UpgradeTests {
    @Test func todaysServiceOpensThePreviousReleasesDatabaseWithNothingLost() async throws {
        let fixture = try UpgradeFixture.load()
        let directory = try UpgradeFixture.copyIntoDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (before, columns, versionBefore) = try await UpgradeFixture.withDatabase(directory) { sql in
            let rows = try await UpgradeFixture.rows(sql)
            var columns: [String: [String]] = [:]
            for table in rows.keys { columns[table] = try await UpgradeFixture.tableColumns(sql, table) }
            return (rows, columns, try await SchemaVersion.read(from: sql))
        }
        #expect(versionBefore.recorded && versionBefore.isOpenable)
        #expect(before["service_keys"]?.isEmpty == false && before["profiles"]?.count == 1 && before["clients"]?.count == 1)

        let clock = ManualClock(Date(timeIntervalSince1970: Double(fixture.madeAt) / 1000 + 60))
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await Self.checkUpgradedService(directory: directory, fixture: fixture, clock: clock, httpClient: httpClient)
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()

        let after = try await UpgradeFixture.withDatabase(directory) { try await UpgradeFixture.rows($0, columns: columns) }
        for (table, rows) in before {
            let kept = after[table] ?? []
            #expect(rows.isSubset(of: kept), "rows of \(table) lost in the upgrade: \(rows.subtracting(kept).count)")
        }
    }

    /// Today's service on the fixture's database: the schema is up to date, the catalog is there, the client gets a
    /// token with its secret and reads its device's profile, and the same keys are published.
    static func checkUpgradedService(directory: String, fixture: UpgradeFixture, clock: ManualClock, httpClient: HTTPClient) async throws {
        try await UpgradeFixture.serve(directory, clock: clock) { host, baseURL in
            #expect(try await host.service.repository.schemaVersion().pending.isEmpty)
            #expect(try await host.service.repository.catalogStore.requestor(id: fixture.requestor) != nil)
            #expect(try await host.service.repository.catalogStore.mvpd(id: fixture.mvpd) != nil)

            // The client registered before the upgrade gets a token with its secret and reads its signed-in profile.
            var client = RESTClient(httpClient: httpClient, baseURL: baseURL, serviceProvider: fixture.requestor, deviceID: fixture.deviceID)
            let token = try await client.send(
                .POST, "/o/client/token",
                form: [("client_id", fixture.clientID), ("client_secret", fixture.clientSecret), ("grant_type", "client_credentials")],
                authorized: false)
            #expect(token.status == 201 || token.status == 200, "\(token.text)")
            client.accessToken = try token.decode(AccessTokenResponse.self).accessToken
            let profile = try await client.send(.GET, "/api/v2/\(fixture.requestor)/profiles/\(fixture.mvpd)")
            #expect(profile.status == 200, "\(profile.text)")
            #expect(profile.text.contains(fixture.userID))

            // The signing keys are the fixture's: the same certificates are published.
            let keys = try await client.send(.GET, "/keys/media-token", authorized: false)
            let published = keys.text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
            #expect(published == fixture.mediaTokenCertificates)
        }
    }

    @Test func aDatabaseWrittenByANewerBinaryIsRefusedAndLeftAsItWas() async throws {
        let directory = try UpgradeFixture.copyIntoDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A newer binary's database: it records a migration this binary does not know; one this binary knows is not
        // yet applied (so an attempt to migrate would show).
        let before = try await UpgradeFixture.withDatabase(directory) { sql in
            try await sql.raw("INSERT INTO schema_migrations (version, applied_at) VALUES (69999, 0)").run()
            try await sql.raw("DELETE FROM schema_migrations WHERE version = 40").run()
            try await sql.raw("DROP TABLE admin_changes").run()
            return try await UpgradeFixture.rows(sql)
        }

        let serve = try await Self.entitle(["serve", "--no-demo", "--port", "0", "--data-dir", directory])
        #expect(serve.status == 1, "\(serve.stdout) \(serve.stderr)")
        #expect(serve.stderr.contains("written by a newer Entitle"), "\(serve.stderr)")
        #expect(serve.stderr.contains("69999"))
        let admin = try await Self.entitle(["admin", "mvpd", "list", "--data-dir", directory])
        #expect(admin.status == 1)
        #expect(admin.stderr.contains("written by a newer Entitle"), "\(admin.stderr)")

        let after = try await UpgradeFixture.withDatabase(directory) { sql in
            let tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all(decodingColumn: "name", as: String.self)
            #expect(!tables.contains("admin_changes"), "a migration ran on a newer database")
            return try await UpgradeFixture.rows(sql)
        }
        #expect(after == before)
    }

    /// Runs the `entitle` binary to its end.
    static func entitle(
        _ arguments: [String], environment: [String: String] = ["ENTITLE_DATABASE_URL": "", "ENTITLE_TEST_DATABASE_URL": ""]
    ) async throws -> DeviceProcess.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(), arguments: arguments, directory: directory, environment: environment)
        defer { process.stop() }
        return try await process.finish(timeout: 120)
    }
}
