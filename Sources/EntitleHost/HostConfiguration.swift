import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation

/// How `entitle serve` (and the tests) run the service: address, storage, throttling and the demo world.
package struct HostConfiguration: Sendable {
    /// Interface to listen on (loopback by default).
    package var host = "127.0.0.1"
    /// Port to listen on.
    package var port = 8080
    /// Data directory: SQLite database, demo files, DemoMVPD keys.
    package var dataDirectory = ".entitle"
    /// `postgres://…` to use PostgreSQL instead of SQLite.
    package var databaseURL: String?
    /// Where the CLI takes the PostgreSQL URL from when `databaseURL` is nil (option file, environment).
    package var databaseURLSource: DatabaseURLSource?
    /// The externally visible base URL; defaults to `http://host:port`.
    package var publicBaseURL: String?
    /// Requests per second per device (0 disables throttling).
    package var rateLimitPerSecond = 1.0
    /// Burst per device.
    package var rateLimitBurst = 10.0
    /// How old the last check of the catalog version may be before cached catalog data is used: the bound on how
    /// long a change made by another instance or `entitle admin` stays unseen (zero: check before every use).
    package var catalogRefresh: Duration = .milliseconds(500)
    /// How long a profile change (logout, sign-in, deletion) made by another instance or process may stay unseen by
    /// this one's in-memory profiles: the polling interval on SQLite; on PostgreSQL changes arrive by `NOTIFY` within
    /// milliseconds and this is only the fallback. Zero reads every profile from the database.
    package var profileCacheBound: Duration = ProfileCache.defaultBound
    /// log2 of scrypt's N for new operator passwords: the default outside test harnesses (see `ServiceConfiguration`).
    package var operatorPasswordLogRounds = 16
    /// Devices whose profiles are kept in memory at most (about 1 KB each, `entitle bench profile-memory`).
    package var profileCacheDevices = ProfileCache.defaultCapacity
    /// Proxies whose forwarding headers name the client (`--trusted-proxy`); also exempt from the per-address
    /// connection limit.
    package var trustedProxies: [IPAddressRange] = []
    /// Timeouts and the connection cap of the HTTP server.
    package var connectionLimits = ConnectionLimits()
    /// Interface of the operations address (the console, the admin API, `/metrics`); 127.0.0.1 when nil.
    package var adminHost: String?
    /// Port of the operations address; when nil, the console, the admin API and `/metrics` are served on the
    /// service's port if ``operationsOnServicePort``, and nowhere otherwise.
    package var adminPort: Int?
    /// Whether, without an operations address, the operator surfaces are served on the service's port: `serve` sets
    /// it when the service is local (loopback listen address and public URL) or `--operations-on-public-port`.
    package var operationsOnServicePort = true
    /// Whether to seed the demo world and mount the DemoMVPD.
    package var demo = true
    /// The demo MVPDs whose assertions carry the channel lineup, their integration with `REF` seeded to preflight by
    /// lineup (DemoSSO; tests choose others).
    package var demoLineupProviders: Set<String> = ["DemoSSO"]
    /// Whether the demo world has Demo Proxy, a proxy MVPD with two proxied MVPDs in `REF`'s picker (`serve` always
    /// seeds it; the in-process test harnesses only when a test asks, so the other tests' demo world stays as it was).
    package var demoProxy = true
    /// Days the reports' per-minute figures are kept; nil keeps them (`entitle admin` and the tests leave them alone).
    package var reportRetentionDays: Int?
    /// How often this instance adds its pending report figures to the database (and once more at shutdown).
    package var reportFlushInterval: Duration = .seconds(10)
    /// How long MVPD metadata fetched from a URL is used before it is read again; nil never reads it on its own (the
    /// tests, and `entitle serve --metadata-refresh-hours 0`: then only `entitle admin mvpd refresh` does).
    package var metadataRefreshInterval: Duration?
    /// How often this instance looks for metadata due to be read again.
    package var metadataRefreshCheck: Duration = .seconds(60)

    /// Creates the default configuration.
    package init() {}

    /// The base URL clients and browsers use.
    package var baseURL: String {
        if let publicBaseURL, !publicBaseURL.isEmpty { return publicBaseURL }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }
}
