import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Logging
import ServiceLifecycle

/// Reads the catalog version every half refresh interval, so that the catalog cache is kept fresh by this task rather
/// than by the request that happens to find it stale: that request used to wait for the read, which under a saturated
/// CPU or a busy database took up to two seconds (the p99 outliers of two instances on one PostgreSQL,
/// `docs/scaling.md`). A change made elsewhere is still seen within the refresh interval plus one read. When a read
/// takes longer than half the interval, a request that finds the cache stale with no read under way still reads the
/// version itself, so that with the database unreachable requests fail rather than use a catalog they cannot check.
/// Only for a refresh interval above zero (with zero, every use reads the version); it runs until the group shuts down.
package struct CatalogVersionPoller: Service {
    let repository: Repository
    let logger: Logger

    /// A poller of `repository`'s catalog cache.
    package init(repository: Repository, logger: Logger) {
        self.repository = repository
        self.logger = logger
    }

    package func run() async throws {
        await repeatUntilShutdown(every: repository.catalogCache.refreshInterval / 2) {
            do { try await repository.refreshCatalogVersion(ahead: true) } catch is CancellationError {
            } catch {
                // The request path reads the version itself while this fails (and says so if the database is gone).
                logger.debug("catalog version not read", metadata: ["error.type": "\(type(of: error))"])
            }
        }
    }
}
