import Foundation

/// How `entitle serve` (and the tests) run the service: address, storage, throttling and the demo world.
public struct HostConfiguration: Sendable {
    /// Interface to listen on (loopback by default).
    public var host = "127.0.0.1"
    /// Port to listen on.
    public var port = 8080
    /// Data directory: SQLite database, demo files, DemoMVPD keys.
    public var dataDirectory = ".entitle"
    /// `postgres://…` to use PostgreSQL instead of SQLite.
    public var databaseURL: String?
    /// Where the CLI takes the PostgreSQL URL from when `databaseURL` is nil (option file, environment).
    public var databaseURLSource: DatabaseURLSource?
    /// The externally visible base URL; defaults to `http://host:port`.
    public var publicBaseURL: String?
    /// Requests per second per device (0 disables throttling).
    public var rateLimitPerSecond = 1.0
    /// Burst per device.
    public var rateLimitBurst = 10.0
    /// How old the last check of the catalog version may be before cached catalog data is used: the bound on how
    /// long a change made by another instance or `entitle admin` stays unseen (zero: check before every use).
    public var catalogRefresh: Duration = .milliseconds(500)
    /// Timeouts and the connection cap of the HTTP server.
    public var connectionLimits = ConnectionLimits()
    /// Whether to seed the demo world and mount the DemoMVPD.
    public var demo = true

    /// Creates the default configuration.
    public init() {}

    /// The base URL clients and browsers use.
    public var baseURL: String {
        if let publicBaseURL, !publicBaseURL.isEmpty { return publicBaseURL }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }
}
