import EntitleModel
import Synchronization

/// Per-MVPD options in memory, for unit tests of ``DecisionService`` without a database; reads behave as
/// ``MVPDOptionsStore``'s (defaults where nothing is set; a preflight limit of 0 or less is off).
package final class InMemoryMVPDOptionsStore: MVPDOptionsReading {
    private struct Integration: Hashable {
        let requestor: String
        let mvpd: String
    }

    private struct State {
        var saml: [String: MVPDSAMLOptionsRecord] = [:]
        var xacml: [String: MVPDXACMLOptions] = [:]
        var preflightLimits: [Integration: Int64] = [:]
        var lineupAttributes: [Integration: String] = [:]
        var hbaPolicies: [Integration: HBAPolicy] = [:]
    }

    private let state = Mutex(State())

    /// Creates a store with every option at its default.
    package init() {}

    /// None: the MVPDs of these tests sign in by the HTTP-Redirect binding.
    package func ssoPostLocation(mvpd: String) -> String? { nil }

    /// Sets the SAML options of an MVPD.
    package func setSAMLOptions(_ options: MVPDSAMLOptionsRecord) { state.withLock { $0.saml[options.mvpdId] = options } }

    /// Sets the XACML options of an MVPD.
    package func setXACMLOptions(_ options: MVPDXACMLOptions, mvpd: String) { state.withLock { $0.xacml[mvpd] = options } }

    /// Sets (or with nil, removes) the preflight limit of an integration.
    package func setPreflight(requestor: String, mvpd: String, maxResources: Int64?) {
        state.withLock { $0.preflightLimits[Integration(requestor: requestor, mvpd: mvpd)] = maxResources }
    }

    /// Sets (or with nil, removes) the lineup attribute of an integration (preflight by lineup).
    package func setPreflightLineup(requestor: String, mvpd: String, attribute: String?) {
        state.withLock { $0.lineupAttributes[Integration(requestor: requestor, mvpd: mvpd)] = attribute }
    }

    /// The SAML settings of an MVPD (nil when none were set).
    package func samlOptions(mvpd: String) async throws -> MVPDSAMLOptionsRecord? { state.withLock { $0.saml[mvpd] } }

    /// The XACML settings of an MVPD (the defaults unless set).
    package func xacmlOptions(mvpd: String) async throws -> MVPDXACMLOptions { state.withLock { $0.xacml[mvpd] } ?? .defaults }

    /// The preflight limit of an integration; nil when none is set or it is 0 or less.
    package func preflightMaxResources(requestor: String, mvpd: String) async throws -> Int64? {
        state.withLock { $0.preflightLimits[Integration(requestor: requestor, mvpd: mvpd)] }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Sets (or with nil, removes) the HBA policy of an integration.
    package func setHBAPolicy(requestor: String, mvpd: String, policy: HBAPolicy?) {
        state.withLock { $0.hbaPolicies[Integration(requestor: requestor, mvpd: mvpd)] = policy }
    }

    /// The HBA policy of an integration, or nil.
    package func hbaPolicy(requestor: String, mvpd: String) async throws -> HBAPolicy? {
        state.withLock { $0.hbaPolicies[Integration(requestor: requestor, mvpd: mvpd)] }
    }

    /// The lineup attribute of an integration, or nil.
    package func preflightLineupAttribute(requestor: String, mvpd: String) async throws -> String? {
        state.withLock { $0.lineupAttributes[Integration(requestor: requestor, mvpd: mvpd)] }
    }
}
