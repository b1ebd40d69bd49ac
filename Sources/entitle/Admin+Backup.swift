import ArgumentParser
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation
import Logging

extension Admin {
    /// The route for PostgreSQL, which these commands do not cover.
    static let postgresBackupAdvice = """
        the database is PostgreSQL: back it up with pg_dump and restore it with pg_restore, e.g.
          pg_dump --format=custom --file=entitle.dump "$ENTITLE_DATABASE_URL"
          pg_restore --clean --if-exists --no-owner --dbname="$ENTITLE_DATABASE_URL" entitle.dump
        (see docs/upgrading.md, "Backups").
        """

    /// Fails with the PostgreSQL advice when the options name a PostgreSQL database.
    /// Returns the data directory in effect.
    @discardableResult
    static func requireSQLite(_ storage: StorageOptions) throws -> String {
        let effective: StorageOptions.Effective
        do { effective = try storage.effective() } catch { throw AdminFailure.exit("\(error)") }
        if effective.usesPostgreSQL { throw AdminFailure.exit(postgresBackupAdvice) }
        return effective.dataDir
    }

    /// A logger for the storage commands: warnings and worse.
    static var storageLogger: Logger {
        var logger = Logger(label: "entitle.admin")
        logger.logLevel = .warning
        return logger
    }

    /// `entitle admin backup --to FILE`.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the SQLite database (with the signing keys) to a new owner-only file, consistent while the service runs.",
            discussion: "For PostgreSQL use pg_dump (the command says how). See docs/upgrading.md.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: ArgumentHelp("The backup file to create (it must not exist).", valueName: "file")) var to: String

        func run() async throws {
            try Admin.requireSQLite(admin.storage)
            let dataDir = try AdminFailure.requireService(admin.storage).dataDir
            do {
                let summary = try await DatabaseMaintenance.backup(dataDirectory: dataDir, to: to, logger: Admin.storageLogger)
                print("backed up \(DatabaseMaintenance.databasePath(dataDirectory: dataDir)) to \(to): \(summary)")
            } catch {
                throw AdminFailure.exit("backup failed: \(error)")
            }
        }
    }

    /// `entitle admin restore --from FILE`.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the SQLite database with a backup; the service must be stopped. The replaced database is kept.",
            discussion: """
                The backup must be an intact Entitle database that this binary can open (not written by a newer one). The \
                database it replaces is moved to DATA-DIR/before-restore/. For PostgreSQL use pg_restore (the command says \
                how). See docs/upgrading.md.
                """)
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: ArgumentHelp("The backup file made by `entitle admin backup`.", valueName: "file")) var from: String

        func run() async throws {
            let dataDir = try Admin.requireSQLite(admin.storage)
            do {
                let restored = try await DatabaseMaintenance.restore(
                    from: from, dataDirectory: dataDir, now: Date(), logger: Admin.storageLogger)
                print("restored \(from) into \(DatabaseMaintenance.databasePath(dataDirectory: dataDir)): \(restored.summary)")
                if let previous = restored.previous { print("the database it replaced is kept as \(previous)") }
                if restored.needsUpgrade {
                    print("the backup predates this binary's schema: the next `entitle serve` or `entitle admin` upgrades it")
                }
            } catch {
                throw AdminFailure.exit("restore refused: \(error)")
            }
        }
    }

    /// `entitle admin schema`: the recorded schema version, read without changing anything.
    struct Schema: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the database's schema version and what an upgrade to this binary would apply (changes nothing).")
        @OptionGroup var admin: AdminStorageOptions

        func run() async throws {
            try AdminFailure.requireService(admin.storage)
            var configuration: HostConfiguration
            do { configuration = try admin.storage.hostConfiguration() } catch { throw AdminFailure.exit("\(error)") }
            let logger = Admin.storageLogger
            let version: DatabaseMaintenance.SchemaReport
            do {
                configuration.databaseURL = try configuration.databaseURLSource?.resolve()
                version = try await DatabaseMaintenance.schema(
                    databaseURL: configuration.databaseURL, dataDirectory: configuration.dataDirectory, logger: logger)
            } catch {
                throw AdminFailure.exit("cannot read the schema: \(error)")
            }
            print("schema \(version.latest): \(version.appliedCount) migrations recorded")
            print("this binary knows \(version.knownCount) migrations (up to \(version.knownLatest))")
            if !version.pending.isEmpty { print("an upgrade applies: " + version.pending.map(String.init).joined(separator: ", ")) }
            if let tooNew = version.tooNew { throw AdminFailure.exit(tooNew) }
            if version.pending.isEmpty { print("up to date") }
        }
    }
}
