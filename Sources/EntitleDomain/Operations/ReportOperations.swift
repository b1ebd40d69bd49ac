import EntitleModel
import EntitleStorage

/// The reports: this instance's pending figures written to the database, and the figures read back.
package struct ReportOperations: Sendable {
    /// This instance's pending figures.
    package let metrics: ServiceMetrics
    /// The figures of every instance.
    package let reports: ReportStore
    /// This instance's flushes, one after another.
    private let flushes = FlushSequence()

    /// Adds this instance's pending report figures to the database's rows (other instances add theirs to the same
    /// rows). Figures whose write failed are kept for the next flush. Flushes run one after another: when one returns,
    /// every figure drained before it (by the periodic flush too) is written.
    package func flush() async throws {
        let metrics = self.metrics
        let reports = self.reports
        try await flushes.run { try await Self.write(metrics.reports.drain(), to: reports, pending: metrics.reports) }
    }

    /// Writes drained figures; what a failure left unwritten goes back to `pending`.
    private static func write(_ figures: [ReportMinute: ReportCounts], to reports: ReportStore, pending: ReportAccumulator) async throws {
        guard !figures.isEmpty else { return }
        let rows = Array(figures)
        var written = 0
        do {
            // In chunks, so that a failure puts back only what was not written.
            for start in stride(from: 0, to: rows.count, by: ReportStore.reportRowsPerStatement) {
                let chunk = Array(rows[start..<min(start + ReportStore.reportRowsPerStatement, rows.count)])
                try await reports.addReportCounts(chunk.map { ($0.key, $0.value) })
                written = start + chunk.count
            }
        } catch {
            pending.restore(Dictionary(uniqueKeysWithValues: rows[written...].map { ($0.key, $0.value) }))
            throw error
        }
    }

    /// The figures of `query`, this instance's pending ones written first (so a report includes every request this
    /// instance has answered; other instances' figures arrive within their flush interval).
    package func report(_ query: ReportQuery) async throws -> [ReportRow] {
        let query = try OperatorReach.restricted(query)
        try await flush()
        return try await reports.report(query)
    }

    /// Creates the value from each of its stored properties.
    package init(metrics: ServiceMetrics, reports: ReportStore) {
        self.metrics = metrics
        self.reports = reports
    }
}
