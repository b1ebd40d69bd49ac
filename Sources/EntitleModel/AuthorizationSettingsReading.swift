/// The catalog reads of an authorization decision: how an MVPD is asked, how long its answers are kept, and the catalog
/// generation those answers are kept under (a catalog change drops them). ``CatalogStore`` on SQL (cached, see
/// ``CatalogCache``), ``InMemoryCatalogStore`` in unit tests.
package protocol AuthorizationSettingsReading: Sendable {
    /// The authorization protocol of an MVPD (`entitle-json` unless configured).
    func authorizationProtocol(mvpd: String) async throws -> MVPDAuthorizationProtocol
    /// The configured authorization TTL of (requestor, MVPD) in seconds, or nil (the service's default applies).
    func authorizationTTL(requestor: String, mvpd: String) async throws -> Int64?
    /// The catalog generation: it changes whenever the catalog changes (read after the catalog was refreshed).
    var catalogGeneration: UInt64 { get }
}
