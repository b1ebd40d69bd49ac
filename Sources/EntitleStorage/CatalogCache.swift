import EntitleCore
import EntitleModel
import Foundation
import Synchronization

/// The in-memory copy of the catalog (requestors, MVPDs, integrations, software statements, clients, keys,
/// degradation rules) of one instance: one typed ``CatalogSlot`` per kind of cached value.
///
/// Every catalog write, by any process on the same database, bumps the row of `catalog_version`. Before a cached
/// value is used, the version is read again when the last read is older than `refreshInterval`; when it changed,
/// everything cached is dropped. So a change made anywhere is seen by every instance within `refreshInterval`
/// (plus one query). A `refreshInterval` of zero reads the version before every use (strict, one small query).
/// Writes made through this instance drop the cache at once. Values loaded while the cache was dropped are not kept
/// (a generation counter), so a stale read can never be stored after a change was seen.
package final class CatalogCache: Sendable {
    /// The default bound on how long a change made elsewhere stays unseen.
    package static let defaultRefreshInterval: Duration = .milliseconds(500)

    /// The key of a slot that holds one value (a whole table read at once).
    package enum Whole: Hashable, Sendable { case table }

    package struct State: Sendable {
        package var version: Int64?
        package var checkedAt: ContinuousClock.Instant?
        package var checking = false

        /// Creates the value from each of its stored properties.
        package init(version: Int64? = nil, checkedAt: ContinuousClock.Instant? = nil, checking: Bool = false) {
            self.version = version
            self.checkedAt = checkedAt
            self.checking = checking
        }
    }

    /// How old the last version check may be before a cached value is used.
    package let refreshInterval: Duration
    /// Entries kept at most per slot; when full, the slot starts again empty.
    package let capacity: Int
    private let state = Mutex(State())
    /// Until when (`DispatchTime` uptime, ns) the last version read lets cached values be used without another: read
    /// without the lock on every catalog read (``isFresh()``). A plain integer compare: `ContinuousClock` durations
    /// cost a 128-bit division to turn into nanoseconds.
    private let freshUntil = Atomic<UInt64>(0)
    /// The generation, shared with the slots: it changes whenever the cache is dropped.
    package let generations = CatalogGeneration()
    private let clock = ContinuousClock()

    // One slot per kind of cached value.
    /// Requestors by id (nil: unknown or disabled).
    package let requestors: CatalogSlot<String, RequestorRecord?>
    /// MVPDs by id.
    package let mvpds: CatalogSlot<String, MVPDRecord?>
    /// MVPDs by SAML entity id.
    package let mvpdsByEntity: CatalogSlot<String, MVPDRecord?>
    /// The integrated MVPDs of each requestor.
    package let requestorMVPDs: CatalogSlot<String, [MVPDRecord]>
    /// An integrated MVPD with its overrides, by (requestor, MVPD).
    package let integratedMVPDs: CatalogSlot<IntegrationKey, MVPDRecord?>
    /// Degradation rules by (requestor, MVPD).
    package let degradationRules: CatalogSlot<IntegrationKey, [DegradationRuleRecord]>
    /// Authorization TTLs of an MVPD (every requestor's).
    package let authorizationTTLs: CatalogSlot<String, [AuthorizationTTLRecord]>
    /// The authorization protocol of every MVPD that sets one.
    package let authorizationProtocols: CatalogSlot<Whole, [MVPDAuthorizationProtocolRecord]>
    /// The media-token algorithm of every requestor that sets one.
    package let mediaTokenAlgorithms: CatalogSlot<Whole, [MediaTokenAlgorithmRecord]>
    /// SAML options by MVPD.
    package let samlOptions: CatalogSlot<String, MVPDSAMLOptionsRecord?>
    /// XACML options of every MVPD that sets them.
    package let xacmlOptions: CatalogSlot<Whole, [MVPDOptionsStore.XACMLRow]>
    /// Preflight limits of every integration that sets one.
    package let preflightLimits: CatalogSlot<Whole, [MVPDOptionsStore.PreflightRow]>
    /// Preflight-by-lineup attributes of every integration that sets one.
    package let preflightLineups: CatalogSlot<Whole, [MVPDOptionsStore.LineupRow]>
    /// HBA policies of every integration that sets one.
    package let hbaPolicies: CatalogSlot<Whole, [MVPDOptionsStore.HBAPolicyRow]>
    /// OAuth 2.0 settings by MVPD.
    package let oauth2Settings: CatalogSlot<String, MVPDOAuth2Record?>
    /// Software statements by id.
    package let softwareStatements: CatalogSlot<String, SoftwareStatementRecord?>
    /// Clients by id (only those that exist).
    package let clients: CatalogSlot<String, ClientRecord>
    /// Approved clients of approved statements by id (only those that exist).
    package let activeClients: CatalogSlot<String, ClientRecord>
    /// Verification keys by purpose.
    package let verificationKeys: CatalogSlot<KeyPurpose, [ServiceKeyRecord]>
    /// Service keys by kid.
    package let serviceKeys: CatalogSlot<String, ServiceKeyRecord?>
    /// The DER of each requestor's user-metadata public key (``WireProfiles``).
    package let metadataKeys: CatalogSlot<String, Data?>
    /// The requestor part of `GET /configuration`, as JSON text, by requestor.
    package let configurationJSON: CatalogSlot<String, String>

    /// A slot for values derived from the catalog by another layer (such as parsed signing keys), kept for the same
    /// generation as the catalog's own slots and bounded the same way.
    package func derivedSlot<Key: Hashable & Sendable, Value: Sendable>(_: Value.Type = Value.self) -> CatalogSlot<Key, Value> {
        CatalogSlot(generations, capacity)
    }

    /// Creates an empty cache.
    package init(refreshInterval: Duration = CatalogCache.defaultRefreshInterval, capacity: Int = 100_000) {
        self.refreshInterval = refreshInterval
        self.capacity = capacity
        let g = generations
        requestors = .init(g, capacity)
        mvpds = .init(g, capacity)
        mvpdsByEntity = .init(g, capacity)
        requestorMVPDs = .init(g, capacity)
        integratedMVPDs = .init(g, capacity)
        degradationRules = .init(g, capacity)
        authorizationTTLs = .init(g, capacity)
        authorizationProtocols = .init(g, capacity)
        mediaTokenAlgorithms = .init(g, capacity)
        samlOptions = .init(g, capacity)
        xacmlOptions = .init(g, capacity)
        preflightLimits = .init(g, capacity)
        preflightLineups = .init(g, capacity)
        hbaPolicies = .init(g, capacity)
        oauth2Settings = .init(g, capacity)
        softwareStatements = .init(g, capacity)
        clients = .init(g, capacity)
        activeClients = .init(g, capacity)
        verificationKeys = .init(g, capacity)
        serviceKeys = .init(g, capacity)
        metadataKeys = .init(g, capacity)
        configurationJSON = .init(g, capacity)
    }

    /// Whether cached values may be used now without reading the version: it was read less than `refreshInterval` ago.
    /// The lock-free shortcut of ``versionCheckDue()`` for the request path.
    package func isFresh() -> Bool {
        DispatchTime.now().uptimeNanoseconds < freshUntil.load(ordering: .acquiring)
    }

    /// Whether the version must be read now; when true the caller reads it and calls ``versionRead(_:at:)``. `age`
    /// (default: ``refreshInterval``) is how old the last read may be: the host's poller reads it again at half the
    /// interval, so that the cache stays fresh and no request waits for the read (``CatalogVersionPoller``).
    package func versionCheckDue(olderThan age: Duration? = nil) -> (due: Bool, startedAt: ContinuousClock.Instant) {
        let now = clock.now
        return state.withLock { state in
            if refreshInterval == .zero || state.version == nil { return (true, now) }
            guard !state.checking, let checkedAt = state.checkedAt, now - checkedAt >= (age ?? refreshInterval) else { return (false, now) }
            state.checking = true
            return (true, now)
        }
    }

    /// Records the version read at `startedAt`; drops everything when it changed.
    package func versionRead(_ version: Int64?, at startedAt: ContinuousClock.Instant) {
        state.withLock { state in
            state.checking = false
            guard let version else { return }
            if state.version != version {
                state.version = version
                generations.advance()
            }
            if state.checkedAt.map({ $0 < startedAt }) ?? true { state.checkedAt = startedAt }
            if refreshInterval > .zero, let checkedAt = state.checkedAt {
                let left = max(.zero, checkedAt + refreshInterval - clock.now).nanoseconds
                freshUntil.store(DispatchTime.now().uptimeNanoseconds + UInt64(left), ordering: .releasing)
            }
        }
    }

    /// Drops everything (a write through this instance).
    package func invalidate() { generations.advance() }

    /// The generation: it changes whenever the cache is dropped (other caches derived from the catalog follow it).
    package var generation: UInt64 { generations.current }
}

/// A (requestor, MVPD) integration as a cache key.
package struct IntegrationKey: Hashable, Sendable {
    /// Requestor id.
    package let requestor: String
    /// MVPD id.
    package let mvpd: String

    /// Creates the value from each of its stored properties.
    package init(requestor: String, mvpd: String) {
        self.requestor = requestor
        self.mvpd = mvpd
    }
}

/// The key of a set of parsed signing keys: the purpose and the kids of the records parsed.
package struct ParsedKeysKey: Hashable, Sendable {
    /// What the keys sign.
    package let purpose: KeyPurpose
    /// The kids, comma-separated, in the order of the records.
    package let kids: String

    /// Creates the value from each of its stored properties.
    package init(purpose: KeyPurpose, kids: String) {
        self.purpose = purpose
        self.kids = kids
    }
}
