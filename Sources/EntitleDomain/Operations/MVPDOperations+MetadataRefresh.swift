import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import SAML

/// MVPD metadata fetched from a URL: refreshed by hand (`entitle admin mvpd refresh`) and on a schedule
/// (`entitle serve --metadata-refresh-hours`).
extension MVPDOperations {
    /// Who the changes log names for a refresh the service made on its own schedule.
    package static let metadataRefreshActor = "service:metadata-refresh"

    /// Reads again the metadata of every MVPD whose URL was last read `interval` ago or more, each by one instance only
    /// (claimed in the database first), and applies what changed (recorded in the changes log). A source that fails is
    /// tried again after another `interval`. Returns the MVPDs whose metadata changed, and the failures by MVPD.
    @discardableResult
    package func refreshDueMetadata(interval: Duration) async throws -> (changed: [String], failures: [String: String]) {
        let now = clock.nowMilliseconds()
        let due = try await onboarding.metadataSourcesDue(at: now - interval.components.seconds * 1000)
        var changed: [String] = [], failures: [String: String] = [:]
        for source in due where try await onboarding.claimMetadataRefresh(mvpd: source.mvpd, seen: source.refreshedAt, now: now) {
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

    /// Fetches the SAML metadata of every MVPD that has a metadata URL (or of `only`) and applies what changed, recorded
    /// as `mvpd.update` by `actor`. Returns the MVPDs whose metadata changed; a failed fetch leaves that MVPD as it was
    /// and is reported in `failures`.
    package func refreshMetadata(only: String? = nil, actor: String) async throws -> (changed: [String], failures: [String: String]) {
        if let only { try OperatorReach.requireMVPD(only) } else { try OperatorReach.requireServiceWide("refreshing every MVPD's metadata") }
        let sources = try await onboarding.metadataSources().filter { only == nil || $0.mvpd == only }
        if let only, sources.isEmpty {
            throw AdminError(
                "no_metadata_url", "\(only) has no metadata URL (set one with `entitle admin mvpd update --saml-metadata-url`)", status: 404)
        }
        var changed: [String] = [], failures: [String: String] = [:]
        for source in sources {
            do {
                let xml = try await fetchMetadata(source.url)
                let metadata = try IdentityProviderMetadata.parse(xml: xml)
                let pems = try metadata.signingCertificates.map { try $0.serializeAsPEM().pemString }
                guard let record = try await catalog.mvpd(id: source.mvpd) else { continue }
                let unchanged =
                    record.entityId == metadata.entityID && record.ssoUrl == metadata.singleSignOnRedirectURL
                    && record.sloUrl == metadata.singleLogoutRedirectURL && record.certificates == pems
                if unchanged {
                    try await onboarding.setMetadataSource(mvpd: source.mvpd, url: source.url, at: clock.nowMilliseconds())
                    continue
                }
                var update = MVPDUpdate()
                update.samlMetadataURL = source.url
                try await applyUpdate(id: source.mvpd, update, metadataXML: xml, actor: actor)
                changed.append(source.mvpd)
            } catch {
                failures[source.mvpd] = "\(error)"
            }
        }
        return (changed, failures)
    }

    /// Downloads SAML metadata: http(s) only, 10 seconds, at most 1 MiB.
    package func fetchMetadata(_ url: String) async throws -> String {
        guard let parsed = URL(string: url), ["https", "http"].contains(parsed.scheme ?? ""), parsed.host != nil else {
            throw AdminError("invalid_value", "the metadata URL must be an http(s) URL")
        }
        do {
            let response = try await httpClient.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
            guard response.status == .ok else {
                throw AdminError("metadata_unavailable", "\(url) answered HTTP \(response.status.code)", status: 502)
            }
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        } catch let error as AdminError {
            throw error
        } catch {
            throw AdminError("metadata_unavailable", "cannot fetch \(url): \(error)", status: 502)
        }
    }
}
