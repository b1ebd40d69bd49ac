import Synchronization

/// A catalog in memory, for unit tests of domain services without a database: requestors, MVPDs and which MVPDs are
/// integrated with which requestor; reads behave as ``CatalogStore``'s (without integration overrides).
package final class InMemoryCatalogStore: CatalogReading {
    private struct State {
        var requestors: [String: RequestorRecord] = [:]
        var mvpds: [String: MVPDRecord] = [:]
        /// Requestor id → ids of the MVPDs integrated with it.
        var integrations: [String: Set<String>] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty catalog.
    package init() {}

    /// Adds or replaces a requestor.
    package func add(_ requestor: RequestorRecord) { state.withLock { $0.requestors[requestor.id] = requestor } }

    /// Adds or replaces an MVPD, integrated with the requestors `integratedWith`.
    package func add(_ mvpd: MVPDRecord, integratedWith requestors: [String] = []) {
        state.withLock { state in
            state.mvpds[mvpd.id] = mvpd
            for requestor in requestors { state.integrations[requestor, default: []].insert(mvpd.id) }
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
}
