import EntitleModel
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLiteKit
import SQLKit

/// The storage engine behind the repositories: embedded SQLite in a data directory, or PostgreSQL for scale-out.
package final class DatabaseEngine: Sendable {
    /// Which engine is in use.
    package enum Kind: String, Sendable { case sqlite, postgres }

    /// The engine kind.
    package let kind: Kind
    /// The SQL database every repository query goes through.
    package let sql: any SQLDatabase
    /// The connection settings of a PostgreSQL engine (for connections outside the pool, such as `LISTEN`).
    package let postgresConfiguration: PostgresConnection.Configuration?
    private let closeAction: @Sendable () async throws -> Void

    private init(
        kind: Kind, sql: any SQLDatabase, postgresConfiguration: PostgresConnection.Configuration? = nil,
        close: @escaping @Sendable () async throws -> Void
    ) {
        self.kind = kind
        self.sql = sql
        self.postgresConfiguration = postgresConfiguration
        closeAction = close
    }

    /// Opens (creating when needed) an SQLite database file, in WAL mode with a busy timeout and `secure_delete` on.
    package static func sqlite(path: String, logger: Logger) async throws -> DatabaseEngine {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: .singleton, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        let sql = connection.sql()
        try await sql.raw("PRAGMA journal_mode=WAL").run()
        try await sql.raw("PRAGMA busy_timeout=5000").run()
        try await sql.raw("PRAGMA synchronous=NORMAL").run()
        // Removed rows are overwritten with zeros in their pages, so the file keeps no copy of what a privacy erase (or
        // any deletion) removed; the write-ahead log's old page images go at the erase's checkpoint (PrivacyStore).
        try await sql.raw("PRAGMA secure_delete=ON").run()
        return DatabaseEngine(kind: .sqlite, sql: sql) { try await connection.close().get() }
    }

    /// Connects to PostgreSQL with a `postgres://user:password@host:port/database` URL and a connection pool; TLS as the
    /// URL's `sslmode` and `sslrootcert` say (``PostgresTLS``, libpq's meanings; `prefer` when absent).
    package static func postgres(url: String, logger: Logger, connectionsPerEventLoop: Int = 4) throws -> DatabaseEngine {
        let tls = try PostgresTLS.configuration(url: url)
        var configuration = try SQLPostgresConfiguration(url: url)
        configuration.coreConfiguration.tls = tls
        let pool = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: connectionsPerEventLoop, pruneInterval: nil, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton
        )
        // The pool is internally synchronised (locks per event loop) but not annotated Sendable.
        nonisolated(unsafe) let sharedPool = pool
        return DatabaseEngine(
            kind: .postgres, sql: pool.database(logger: logger).sql(), postgresConfiguration: configuration.coreConfiguration
        ) {
            try await sharedPool.shutdownAsync()
        }
    }

    /// Opens the engine a configuration asks for: PostgreSQL when a URL is given, else SQLite in the data directory.
    package static func open(databaseURL: String?, dataDirectory: String, logger: Logger) async throws -> DatabaseEngine {
        if let databaseURL, !databaseURL.isEmpty {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw ConfigurationError("Unsupported --database-url: only postgres:// URLs are accepted.")
            }
            if FileManager.default.fileExists(atPath: dataDirectory) { try DataDirectory.secure(dataDirectory, logger: logger) }
            let engine = try postgres(url: databaseURL, logger: logger)
            // A first query, so that a TLS mismatch (sslmode=require against a server without TLS, an unknown CA) is
            // told plainly at start-up.
            do { try await engine.sql.raw("SELECT 1").run() } catch {
                try? await engine.close()
                throw PostgresTLS.explain(error, url: databaseURL) ?? error
            }
            return engine
        }
        // The database holds the private signing keys: the file exists owner-only before SQLite opens it, and SQLite
        // gives its -wal and -shm files the database file's mode.
        try DataDirectory.secure(dataDirectory, logger: logger)
        let path = dataDirectory + "/entitle.sqlite"
        try DataDirectory.createPrivateFile(path)
        let engine = try await sqlite(path: path, logger: logger)
        try DataDirectory.secure(dataDirectory, logger: logger)
        return engine
    }

    /// Closes connections.
    package func close() async throws { try await closeAction() }
}
