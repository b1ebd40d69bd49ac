import AsyncHTTPClient
import EntitleCore
import Foundation
import Logging

/// Everything a request handler of the service needs, injected once when the application is built.
public struct EntitleService: Sendable {
    /// Settings.
    public let configuration: ServiceConfiguration
    /// Persistent state.
    public let repository: Repository
    /// Signing keys.
    public let keys: ServiceKeys
    /// JWT issuer.
    public let tokens: TokenIssuer
    /// Time.
    public let clock: any ServiceClock
    /// HTTP client for MVPD authorization APIs.
    public let httpClient: HTTPClient
    /// Metrics.
    public let metrics: ServiceMetrics
    /// Logger for background work.
    public let logger: Logger
    /// In-memory rate-limit buckets and MVPD authorization answers of this instance.
    public let caches = ServiceCaches()

    /// Creates the service.
    public init(configuration: ServiceConfiguration, repository: Repository, clock: any ServiceClock = SystemClock(),
                httpClient: HTTPClient = .shared, metrics: ServiceMetrics = ServiceMetrics(), logger: Logger) {
        self.configuration = configuration
        self.repository = repository
        self.clock = clock
        keys = ServiceKeys(repository: repository, clock: clock)
        tokens = TokenIssuer(keys: keys, clock: clock, accessTokenLifetime: configuration.accessTokenLifetime)
        self.httpClient = httpClient
        self.metrics = metrics
        self.logger = logger
    }

    /// The current time in ms.
    var now: Int64 { clock.nowMilliseconds() }
}
