import ArgumentParser
import EntitleHost

/// Options shared by commands that open the service's storage.
struct StorageOptions: ParsableArguments {
    @Option(help: "Data directory for the embedded SQLite database, demo files and DemoMVPD keys (env: ENTITLE_DATA_DIR).")
    var dataDir = EnvironmentDefaults.dataDirectory

    @Option(
        help:
            "PostgreSQL URL (postgres://user:password@host:port/database) to use instead of SQLite; visible in ps, prefer the environment variable ENTITLE_DATABASE_URL, --database-url-file or PGPASSWORD."
    )
    var databaseURL: String?

    @Option(help: "File holding the PostgreSQL URL (keep it owner-only).")
    var databaseURLFile: String?

    func hostConfiguration(host: String = "127.0.0.1", port: Int = 8080, publicURL: String? = nil) -> HostConfiguration {
        var configuration = HostConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = dataDir
        configuration.databaseURLSource = .from(option: databaseURL, file: databaseURLFile)
        configuration.publicBaseURL = publicURL
        return configuration
    }
}
