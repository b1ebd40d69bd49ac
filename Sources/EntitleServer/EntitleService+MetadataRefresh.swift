import EntitleCore

/// The scheduled refresh of MVPD metadata fetched from a URL (`entitle serve --metadata-refresh-hours`), as
/// `entitle admin mvpd refresh` does it by hand.
extension EntitleService {
    /// Who the changes log names for a refresh the service made on its own schedule.
    package static let metadataRefreshActor = "service:metadata-refresh"

    /// Reads again the metadata of every MVPD whose URL was last read `interval` ago or more, each by one instance only
    /// (claimed in the database first), and applies what changed (recorded in the changes log). A source that fails is
    /// tried again after another `interval`. Returns the MVPDs whose metadata changed, and the failures by MVPD.
    @discardableResult
    package func refreshDueMetadata(interval: Duration) async throws -> (changed: [String], failures: [String: String]) {
        let now = self.now
        let due = try await repository.onboarding.metadataSourcesDue(at: now - interval.components.seconds * 1000)
        var changed: [String] = [], failures: [String: String] = [:]
        for source in due where try await repository.onboarding.claimMetadataRefresh(mvpd: source.mvpd, seen: source.refreshedAt, now: now) {
            let result = try await refreshMetadata(only: source.mvpd, actor: Self.metadataRefreshActor)
            changed += result.changed
            failures.merge(result.failures) { _, latest in latest }
        }
        for mvpd in changed { logger.info("MVPD metadata changed at its URL and applied", metadata: ["mvpd": "\(mvpd)"]) }
        for mvpd in failures.keys.sorted() {
            logger.warning("MVPD metadata could not be refreshed; tried again after the refresh interval", metadata: ["mvpd": "\(mvpd)"])
        }
        return (changed, failures)
    }
}
