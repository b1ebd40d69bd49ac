import ArgumentParser
import EntitleHost

/// Options shared by commands that open the service's storage.
struct StorageOptions: ParsableArguments {
    @Option(help: "Data directory for the embedded SQLite database, demo files and DemoMVPD keys (env: ENTITLE_DATA_DIR).")
    var dataDir = EnvironmentDefaults.dataDirectory

    @Option(help: "PostgreSQL URL (postgres://user:password@host:port/database) to use instead of SQLite.")
    var databaseURL: String?

    func hostConfiguration(host: String = "127.0.0.1", port: Int = 8080, publicURL: String? = nil) -> HostConfiguration {
        var configuration = HostConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = dataDir
        configuration.databaseURL = databaseURL
        configuration.publicBaseURL = publicURL
        return configuration
    }
}
