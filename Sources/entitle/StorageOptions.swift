import ArgumentParser
import EntitleHost
import Foundation

/// Options shared by commands that open the service's storage, read the way `entitle serve` reads them: flag >
/// environment (`ENTITLE_DATA_DIR`, `ENTITLE_DATABASE_URL`, `ENTITLE_DATABASE_URL_FILE`) > configuration file
/// (`--config` or `ENTITLE_CONFIG`, the same file as serve's) > default.
struct StorageOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "Data directory for the embedded SQLite database, demo files and DemoMVPD keys (env: ENTITLE_DATA_DIR; default: ./.entitle).")
    var dataDirOption: String?

    @Option(
        help:
            "PostgreSQL URL (postgres://user:password@host:port/database) to use instead of SQLite; visible in ps, prefer the environment variable ENTITLE_DATABASE_URL, --database-url-file or PGPASSWORD."
    )
    var databaseURL: String?

    @Option(help: "File holding the PostgreSQL URL (keep it owner-only; env: ENTITLE_DATABASE_URL_FILE).")
    var databaseURLFile: String?

    @Option(help: ArgumentHelp("JSON or YAML file of settings, keys named as the long options of serve (env: ENTITLE_CONFIG).", valueName: "file"))
    var config: String?

    /// The storage settings in effect.
    struct Effective: Equatable {
        /// The data directory.
        var dataDir: String
        /// `--database-url` or its equivalent from the environment or the file.
        var databaseURL: String?
        /// `--database-url-file` or its equivalent.
        var databaseURLFile: String?
        /// The service's public URL as `serve` reads it (`ENTITLE_PUBLIC_URL`, else `public-url` in the configuration
        /// file), else `ENTITLE_URL`, else `http://HOST:PORT` from the file's `host` and `port` (serve's default);
        /// nil when none of them is set (the built-in default applies).
        var publicURL: String? = nil
        /// Whether the storage is PostgreSQL rather than the data directory's SQLite.
        var usesPostgreSQL: Bool { databaseURL != nil || databaseURLFile != nil }
    }

    /// The settings in effect: flag > environment > configuration file > default; the database URL and its file are one
    /// setting (whichever is given at the highest layer wins, as for serve).
    func effective(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Effective {
        func nonEmpty(_ name: String) -> String? { ServeConfiguration.nonEmpty(environment[name]) }
        var file: [String: [String]] = [:]
        if let path = config ?? nonEmpty("ENTITLE_CONFIG") {
            let settings = try ServeConfiguration.settings()
            file = try ConfigurationFile.load(path: path, settings: Dictionary(uniqueKeysWithValues: settings.map { ($0.name, $0) })).values
        }
        let dataDir = dataDirOption ?? nonEmpty("ENTITLE_DATA_DIR") ?? file["data-dir"]?.last ?? EnvironmentDefaults.defaultDataDirectory
        let publicURL = Self.publicURL(environment: environment, file: file)
        if databaseURL != nil || databaseURLFile != nil {
            return Effective(dataDir: dataDir, databaseURL: databaseURL, databaseURLFile: databaseURLFile, publicURL: publicURL)
        }
        if nonEmpty("ENTITLE_DATABASE_URL") != nil || nonEmpty("ENTITLE_DATABASE_URL_FILE") != nil {
            return Effective(
                dataDir: dataDir, databaseURL: nonEmpty("ENTITLE_DATABASE_URL"), databaseURLFile: nonEmpty("ENTITLE_DATABASE_URL_FILE"),
                publicURL: publicURL)
        }
        return Effective(
            dataDir: dataDir, databaseURL: file["database-url"]?.last, databaseURLFile: file["database-url-file"]?.last, publicURL: publicURL)
    }

    /// The service's public URL (see ``Effective/publicURL``), without trailing slashes.
    static func publicURL(environment: [String: String], file: [String: [String]]) -> String? {
        func nonEmpty(_ name: String) -> String? { ServeConfiguration.nonEmpty(environment[name]) }
        var url = nonEmpty("ENTITLE_PUBLIC_URL") ?? file["public-url"]?.last ?? nonEmpty("ENTITLE_URL")
        if url == nil, file["host"] != nil || file["port"] != nil || nonEmpty("ENTITLE_HOST") != nil || nonEmpty("ENTITLE_PORT") != nil {
            let host = nonEmpty("ENTITLE_HOST") ?? file["host"]?.last ?? "127.0.0.1"
            let port = nonEmpty("ENTITLE_PORT") ?? file["port"]?.last ?? "8080"
            url = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
        while url?.hasSuffix("/") == true { url?.removeLast() }
        return url
    }

    /// The host's configuration for the settings in effect (the configuration file is read once, here).
    func hostConfiguration(host: String = "127.0.0.1", port: Int = 8080, publicURL: String? = nil) throws -> HostConfiguration {
        let effective = try effective()
        var configuration = HostConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = effective.dataDir
        configuration.databaseURLSource = .from(option: effective.databaseURL, file: effective.databaseURLFile)
        configuration.publicBaseURL = publicURL
        return configuration
    }
}
