#if canImport(Glibc)
import EntitleModel
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import NIOPosix
import SQLiteKit
import SQLKit

/// Backups of the embedded SQLite database (`entitle admin backup` and `restore`). A backup is one SQLite file made by
/// `VACUUM INTO`, which reads the database in a single read transaction: a consistent copy while the service goes on
/// writing (WAL mode lets writers continue). It holds everything the service stores, the private signing keys too, so
/// it is created owner-only (0600).
package enum SQLiteBackup {
    /// The database file in a data directory.
    package static func databasePath(dataDirectory: String) -> String { dataDirectory + "/entitle.sqlite" }

    /// What a backup or a restore holds.
    package struct Summary: Sendable, Equatable {
        /// Size of the file in bytes.
        package var bytes: Int
        /// The schema version it records.
        package var schema: SchemaVersion
        /// Rows of the tables an operator cares about most (signing keys, requestors, MVPDs, clients, profiles).
        package var counts: [String: Int]

        /// One line for the operator.
        package var description: String {
            let rows = ["service_keys", "requestors", "mvpds", "clients", "profiles"].map { "\(counts[$0] ?? 0) \($0)" }
            return "\(bytes) bytes, schema \(schema.latest) (\(schema.applied.count) migrations), " + rows.joined(separator: ", ")
        }

        /// Creates the value from each of its stored properties.
        package init(bytes: Int, schema: SchemaVersion, counts: [String: Int]) {
            self.bytes = bytes
            self.schema = schema
            self.counts = counts
        }
    }

    /// Copies the database of `dataDirectory` into a new owner-only file `destination` (which must not exist), consistent
    /// while the service runs, and checks the copy.
    package static func backup(dataDirectory: String, to destination: String, logger: Logger) async throws -> Summary {
        let source = databasePath(dataDirectory: dataDirectory)
        guard FileManager.default.fileExists(atPath: source) else {
            throw ConfigurationError("No Entitle database at \(source): point --data-dir at the service's data directory.")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ConfigurationError("\(destination) exists; a backup never overwrites a file, choose a new name.")
        }
        let partial = destination + ".partial-" + UUID().uuidString
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, DataDirectory.fileMode)
        guard descriptor >= 0 else { throw ConfigurationError("Cannot create \(destination): \(String(cString: strerror(errno))).") }
        _ = fchmod(descriptor, DataDirectory.fileMode)
        close(descriptor)
        do {
            try await withConnection(source, logger: logger) { sql in
                try await sql.raw("PRAGMA busy_timeout=10000").run()
                let schema = try await SchemaVersion.read(from: sql)
                guard schema.recorded else { throw ConfigurationError("\(source) is not an Entitle database (it records no schema).") }
                guard schema.isOpenable else { throw SchemaTooNewError(unknownVersions: schema.unknown) }
                try await sql.raw("VACUUM INTO \(bind: partial)").run()
            }
            let summary = try await check(partial, logger: logger)
            guard rename(partial, destination) == 0 else {
                throw ConfigurationError("Cannot rename the backup to \(destination): \(String(cString: strerror(errno))).")
            }
            logger.info("database backed up", metadata: ["to": "\(destination)", "bytes": "\(summary.bytes)"])
            return summary
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// Replaces the database of `dataDirectory` with the backup `file`, after checking that it is an intact Entitle
    /// database this binary can open and that no process has the current database open (the service must be stopped).
    /// The database replaced is kept in `before-restore/` in the data directory; its path is returned with the summary.
    package static func restore(
        from file: String, dataDirectory: String, now: Date, logger: Logger
    ) async throws -> (summary: Summary, previous: String?) {
        guard FileManager.default.isReadableFile(atPath: file) else { throw ConfigurationError("Cannot read the backup \(file).") }
        try DataDirectory.secure(dataDirectory, logger: logger)
        let target = databasePath(dataDirectory: dataDirectory)
        if let holder = processHolding(target) {
            throw ConfigurationError(
                "The database in \(dataDirectory) is open by process \(holder) (a running `entitle serve`?): stop the service before a restore.")
        }
        let staging = target + ".restoring-" + UUID().uuidString
        do {
            try DataDirectory.writePrivateFile(try Data(contentsOf: URL(fileURLWithPath: file)), to: staging)
            let summary: Summary
            do { summary = try await check(staging, logger: logger) } catch let error as SchemaTooNewError {
                throw error
            } catch let error as ConfigurationError {
                throw ConfigurationError("\(file): \(error.description)")
            }
            guard summary.counts["service_keys", default: 0] > 0 else {
                throw ConfigurationError("\(file) holds no signing keys: it is not a backup of a service's database.")
            }
            if let holder = processHolding(target) {
                throw ConfigurationError("The database in \(dataDirectory) was opened by process \(holder) meanwhile: stop the service first.")
            }
            var previous: String?
            if FileManager.default.fileExists(atPath: target) {
                let folder = dataDirectory + "/before-restore"
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(DataDirectory.directoryMode)])
                let stamp = Int64(now.timeIntervalSince1970 * 1000)
                let moved = folder + "/entitle.sqlite.\(stamp)"
                for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: target + suffix) {
                    guard rename(target + suffix, moved + suffix) == 0 else {
                        throw ConfigurationError("Cannot move \(target + suffix) aside: \(String(cString: strerror(errno))).")
                    }
                }
                previous = moved
            }
            unlink(target + "-shm")
            unlink(target + "-wal")
            guard rename(staging, target) == 0 else {
                throw ConfigurationError("Cannot put the restored database in place: \(String(cString: strerror(errno))).")
            }
            try DataDirectory.secure(dataDirectory, logger: logger)
            logger.notice("database restored", metadata: ["from": "\(file)", "previous": "\(previous ?? "-")"])
            return (summary, previous)
        } catch {
            unlink(staging)
            unlink(staging + "-wal")
            unlink(staging + "-shm")
            throw error
        }
    }

    /// Checks that `path` is an intact Entitle database this binary can open and counts its main rows.
    package static func check(_ path: String, logger: Logger) async throws -> Summary {
        try await withConnection(path, logger: logger) { sql in
            let integrity: [String]
            let schema: SchemaVersion
            do {
                integrity = try await sql.raw("PRAGMA integrity_check").all(decodingColumn: "integrity_check", as: String.self)
                schema = try await SchemaVersion.read(from: sql)
            } catch {
                throw ConfigurationError("not an SQLite database (\(String(describing: error).prefix(120))).")
            }
            guard integrity == ["ok"] else {
                throw ConfigurationError("the SQLite integrity check failed: \(integrity.prefix(3).joined(separator: "; ")).")
            }
            guard schema.recorded else { throw ConfigurationError("not an Entitle database (it records no schema).") }
            guard schema.isOpenable else { throw SchemaTooNewError(unknownVersions: schema.unknown) }
            var counts: [String: Int] = [:]
            for table in ["service_keys", "requestors", "mvpds", "clients", "profiles"] {
                let count = try? await sql.raw(SQLQueryString("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)")).first(
                    decodingColumn: "n", as: Int.self)
                counts[table] = count ?? 0
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return Summary(bytes: bytes, schema: schema, counts: counts)
        }
    }

    /// The process that has `database` open through SQLite (WAL mode: every connection holds a lock on its `-shm`
    /// file), or nil.
    package static func processHolding(_ database: String) -> pid_t? {
        for file in [database + "-shm", database] {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = 0
            lock.l_len = 0
            if fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) { return lock.l_pid }
        }
        return nil
    }

    /// Runs `body` on a plain connection to an SQLite file (no pragmas that would change it), closed afterwards.
    package static func withConnection<T>(_ path: String, logger: Logger, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: .singleton, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        do {
            let result = try await body(connection.sql())
            try await connection.close().get()
            return result
        } catch {
            try? await connection.close().get()
            throw error
        }
    }
}
