import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import ServiceLifecycle

/// Every `check`, reads again the SAML metadata of the MVPDs whose URL was last read `interval` ago or more
/// (``MVPDOperations/refreshDueMetadata(interval:)``): one instance per MVPD and interval, however many run.
struct MetadataRefresher: Service {
    let service: EntitleService
    let interval: Duration
    let check: Duration

    func run() async throws {
        await repeatUntilShutdown(every: check) {
            do { try await service.mvpds.refreshDueMetadata(interval: interval) } catch is CancellationError {
                // Shutting down: the claimed MVPDs are read again an interval later.
            } catch {
                service.logger.warning("MVPD metadata refresh failed", metadata: ["error.type": "\(type(of: error))"])
            }
        }
    }
}
