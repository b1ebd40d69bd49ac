import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import SQLKit
import Synchronization
import Testing

/// `entitle admin backup` and `restore`, run as the real binary: a backup taken while the service signs devices in
/// holds every sign-in confirmed before it started, and a service started on the restored copy serves them with the
/// same keys (the access tokens issued before still verify; the same media-token certificates are published).
@Suite(.serialized, .timeLimit(.minutes(10))) struct BackupTests {
    /// A device signed in: its client (access token) and the client's credentials.
    struct SignedIn: Sendable {
        let device: String
        let accessToken: String
        let clientID: String
        let clientSecret: String
    }

    /// What the writer confirmed, and the signal to stop it.
    final class Load: Sendable {
        let confirmed = Mutex<[SignedIn]>([])
        let stop = Atomic<Bool>(false)
    }

    /// SQLite only: on PostgreSQL the backup route is pg_dump (the command's advice is tested below).
    static var onSQLite: Bool { (ProcessInfo.processInfo.environment["ENTITLE_TEST_DATABASE_URL"] ?? "").isEmpty }

    static func temporaryPath(_ name: String) -> String { NSTemporaryDirectory() + "entitle-\(name)-" + UUID().uuidString }

    @Test func aBackupUnderWriteLoadRestoresEveryConfirmedSignInAndTheKeys() async throws {
        guard Self.onSQLite else { return }
        let original = Self.temporaryPath("backup-source")
        let restored = Self.temporaryPath("backup-restored")
        let backupFolder = Self.temporaryPath("backups")
        try FileManager.default.createDirectory(atPath: backupFolder, withIntermediateDirectories: true)
        defer { for path in [original, restored, backupFolder] { try? FileManager.default.removeItem(atPath: path) } }
        let backup = backupFolder + "/entitle-backup.sqlite"
        let load = Load()
        var confirmedBeforeBackup: [SignedIn] = []
        var publishedKeys = ""

        try await LocalService.run(dataDirectory: original) { service in
            let writer = Task {
                for index in 0..<400 where !load.stop.load(ordering: .relaxed) {
                    var client = RESTClient(
                        transport: service.transport, baseURL: service.baseURL, serviceProvider: "REF", deviceID: "load-\(index)")
                    let registration = try await client.registerAndAuthorize(softwareStatement: service.softwareStatement)
                    _ = try await service.signIn(client, user: "alice")
                    let profile = try await client.send(.GET, "/api/v2/REF/profiles/DemoCable")
                    guard profile.status == 200 else { throw BrowserError("no profile after sign-in: \(profile.text)") }
                    let signedIn = SignedIn(
                        device: "load-\(index)", accessToken: client.accessToken ?? "", clientID: registration.clientID,
                        clientSecret: registration.clientSecret)
                    load.confirmed.withLock { $0.append(signedIn) }
                }
            }
            for _ in 0..<1200 where load.confirmed.withLock({ $0.count }) < 3 {
                try await Task.sleep(for: .milliseconds(100))
            }
            try #require(load.confirmed.withLock { $0.count } >= 3, "the writer did not sign devices in")
            confirmedBeforeBackup = load.confirmed.withLock { $0 }
            let result = try await UpgradeTests.entitle(["admin", "backup", "--to", backup, "--data-dir", original])
            let confirmedAfterBackup = load.confirmed.withLock { $0.count }
            load.stop.store(true, ordering: .relaxed)
            try await writer.value
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("backed up"), "\(result.stdout)")
            print("BackupTests: sign-ins confirmed: \(confirmedBeforeBackup.count) before the backup, \(confirmedAfterBackup) when it ended")
            publishedKeys = try await service.client().send(.GET, "/keys/media-token", authorized: false).text

            // A restore refuses while the service has the database open.
            let busy = try await UpgradeTests.entitle(["admin", "restore", "--from", backup, "--data-dir", original])
            #expect(busy.status == 1)
            #expect(busy.stderr.contains("stop the service"), "\(busy.stderr)")
        }

        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(mode == 0o600, "backup mode \(String(mode ?? 0, radix: 8))")
        let restore = try await UpgradeTests.entitle(["admin", "restore", "--from", backup, "--data-dir", restored])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("restored"))

        try await LocalService.run(dataDirectory: restored) { service in
            for signedIn in confirmedBeforeBackup {
                var client = RESTClient(transport: service.transport, baseURL: service.baseURL, serviceProvider: "REF", deviceID: signedIn.device)
                client.accessToken = signedIn.accessToken
                let profile = try await client.send(.GET, "/api/v2/REF/profiles/DemoCable")
                #expect(profile.status == 200, "\(signedIn.device): \(profile.text)")
                let token = try await client.send(
                    .POST, "/o/client/token",
                    form: [("client_id", signedIn.clientID), ("client_secret", signedIn.clientSecret), ("grant_type", "client_credentials")],
                    authorized: false)
                #expect(token.status == 201 || token.status == 200, "\(signedIn.device): \(token.text)")
            }
            let keys = try await service.client().send(.GET, "/keys/media-token", authorized: false).text
            #expect(keys == publishedKeys)
        }
    }

    @Test func badBackupsAndRestoresAreRefusedClearly() async throws {
        let folder = Self.temporaryPath("backup-bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let postgres = try await UpgradeTests.entitle([
            "admin", "backup", "--to", folder + "/x", "--database-url", "postgres://entitle@127.0.0.1:1/entitle",
        ])
        #expect(postgres.status == 1)
        #expect(postgres.stderr.contains("pg_dump"), "\(postgres.stderr)")
        let postgresRestore = try await UpgradeTests.entitle([
            "admin", "restore", "--from", folder + "/x", "--database-url", "postgres://entitle@127.0.0.1:1/entitle",
        ])
        #expect(postgresRestore.stderr.contains("pg_restore"), "\(postgresRestore.stderr)")

        let empty = try await UpgradeTests.entitle(["admin", "backup", "--to", folder + "/x", "--data-dir", folder + "/none"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("no Entitle service data"), "\(empty.stderr)")

        let notADatabase = folder + "/notes.txt"
        try Data("not a database at all, just some words to fill a page".utf8).write(to: URL(fileURLWithPath: notADatabase))
        let garbage = try await UpgradeTests.entitle(["admin", "restore", "--from", notADatabase, "--data-dir", folder + "/target"])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.contains("not an SQLite database"), "\(garbage.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/target/entitle.sqlite"))

        let missing = try await UpgradeTests.entitle(["admin", "restore", "--from", folder + "/absent", "--data-dir", folder + "/target"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Cannot read the backup"), "\(missing.stderr)")

        // The upgrade fixture is a database of the previous release: it restores; one a newer binary wrote does not.
        let fixtureDirectory = try UpgradeFixture.copyIntoDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: fixtureDirectory) }
        let existing = try await UpgradeTests.entitle(["admin", "backup", "--to", notADatabase, "--data-dir", fixtureDirectory])
        #expect(existing.status == 1)
        #expect(existing.stderr.contains("exists"), "\(existing.stderr)")
        try await UpgradeFixture.withDatabase(fixtureDirectory) { sql in
            try await sql.raw("INSERT INTO schema_migrations (version, applied_at) VALUES (69999, 0)").run()
        }
        let newer = try await UpgradeTests.entitle([
            "admin", "restore", "--from", fixtureDirectory + "/entitle.sqlite", "--data-dir", folder + "/target",
        ])
        #expect(newer.status == 1)
        #expect(newer.stderr.contains("written by a newer Entitle"), "\(newer.stderr)")
    }
}
