import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import ServiceLifecycle

/// Adds this instance's pending report figures to the database every `interval`, and once more at shutdown, so that
/// figures counted until the last request are kept. A failed write keeps the figures for the next round.
struct ReportFlusher: Service {
    let service: EntitleService
    let interval: Duration

    func run() async throws {
        await repeatUntilShutdown(every: interval) { await flush() }
        // Outside the cancelled loop: what was counted until the last request (and any figures of a flush cut short).
        await flush()
    }

    private func flush() async {
        do { try await service.reports.flush() } catch is CancellationError {
            // Shutting down: the figures were put back and the final flush writes them.
        } catch {
            service.logger.warning("report figures not written; kept for the next flush", metadata: ["error.type": "\(type(of: error))"])
        }
    }
}
