/// The reports: this instance's pending figures written to the database, and the figures read back.
extension EntitleService {
    /// Adds this instance's pending report figures to the database's rows (other instances add theirs to the same
    /// rows). Figures whose write failed are kept for the next flush.
    package func flushReports() async throws {
        let figures = metrics.reports.drain()
        var remaining = figures
        for (minute, counts) in figures {
            do {
                try await repository.addReportCounts(minute, counts)
                remaining[minute] = nil
            } catch {
                metrics.reports.restore(remaining)
                throw error
            }
        }
    }

    /// The figures of `query`, this instance's pending ones written first (so a report includes every request this
    /// instance has answered; other instances' figures arrive within their flush interval).
    package func report(_ query: ReportQuery) async throws -> [ReportRow] {
        try await flushReports()
        return try await repository.report(query)
    }
}
