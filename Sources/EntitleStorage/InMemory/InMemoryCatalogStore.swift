import EntitleModel
import Synchronization

/// A catalog in memory, for unit tests of domain services without a database: requestors, MVPDs and which MVPDs are
/// integrated with which requestor, MVPDs' authorization protocols and TTLs; reads behave as ``CatalogStore``'s (without
/// integration overrides). Every change advances ``catalogGeneration``, as a catalog change does on SQL.
package final class InMemoryCatalogStore: CatalogReading, AuthorizationSettingsReading {
    private struct State {
        var requestors: [String: RequestorRecord] = [:]
        var mvpds: [String: MVPDRecord] = [:]
        /// Requestor id → ids of the MVPDs integrated with it.
        var integrations: [String: Set<String>] = [:]
        /// MVPD id → its authorization protocol, where it is not the default.
        var authorizationProtocols: [String: MVPDAuthorizationProtocol] = [:]
        /// (requestor or `*`, MVPD id) → authorization TTL, seconds.
        var authorizationTTLs: [String: [String: Int64]] = [:]
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates an empty catalog.
    package init() {}

    /// Adds or replaces a requestor.
    package func add(_ requestor: RequestorRecord) {
        state.withLock {
            $0.requestors[requestor.id] = requestor
            $0.generation += 1
        }
    }

    /// Adds or replaces an MVPD, integrated with the requestors `integratedWith`.
    package func add(_ mvpd: MVPDRecord, integratedWith requestors: [String] = []) {
        state.withLock { state in
            state.mvpds[mvpd.id] = mvpd
            for requestor in requestors { state.integrations[requestor, default: []].insert(mvpd.id) }
            state.generation += 1
        }
    }

    /// Sets the authorization protocol of an MVPD.
    package func setAuthorizationProtocol(mvpd: String, _ value: MVPDAuthorizationProtocol) {
        state.withLock {
            $0.authorizationProtocols[mvpd] = value
            $0.generation += 1
        }
    }

    /// Sets the authorization TTL of an MVPD for one requestor, or for every requestor with `*`
    /// (``AuthorizationTTLRecord/anyRequestor``), seconds.
    package func setAuthorizationTTL(requestor: String, mvpd: String, seconds: Int64) {
        state.withLock {
            $0.authorizationTTLs[mvpd, default: [:]][requestor] = seconds
            $0.generation += 1
        }
    }

    /// A requestor by id.
    package func requestor(id: String) async throws -> RequestorRecord? { state.withLock { $0.requestors[id] } }

    /// An MVPD by id.
    package func mvpd(id: String) async throws -> MVPDRecord? { state.withLock { $0.mvpds[id] } }

    /// The MVPDs integrated with a requestor, ordered by display name (then id).
    package func mvpds(requestor: String) async throws -> [MVPDRecord] {
        state.withLock { state in (state.integrations[requestor] ?? []).compactMap { state.mvpds[$0] } }
            .sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
    }

    /// An MVPD if it is integrated with the requestor.
    package func integratedMVPD(requestor: String, mvpd: String) async throws -> MVPDRecord? {
        state.withLock { state in state.integrations[requestor]?.contains(mvpd) == true ? state.mvpds[mvpd] : nil }
    }

    /// The authorization protocol of an MVPD (`entitle-json` unless set).
    package func authorizationProtocol(mvpd: String) async throws -> MVPDAuthorizationProtocol {
        state.withLock { $0.authorizationProtocols[mvpd] } ?? .entitleJSON
    }

    /// The authorization TTL of (requestor, MVPD): the integration's own, else the requestor's default, else the MVPD's.
    package func authorizationTTL(requestor: String, mvpd: String) async throws -> Int64? {
        state.withLock { state in
            let ttls = state.authorizationTTLs[mvpd] ?? [:]
            return ttls[requestor] ?? state.requestors[requestor]?.defaultAuthzTtlSeconds ?? ttls[AuthorizationTTLRecord.anyRequestor]
        }
    }

    /// The catalog generation: it advances with every change.
    package var catalogGeneration: UInt64 { state.withLock { $0.generation } }
}
