/// The catalog reads of the request path: ``CatalogStore`` on SQL (cached, see ``CatalogCache``),
/// ``InMemoryCatalogStore`` in unit tests.
package protocol CatalogReading: Sendable {
    /// A requestor by id (nil when unknown or disabled).
    func requestor(id: String) async throws -> RequestorRecord?
    /// An MVPD by id.
    func mvpd(id: String) async throws -> MVPDRecord?
    /// The MVPDs integrated (and enabled) with a requestor, ordered by display name.
    func mvpds(requestor: String) async throws -> [MVPDRecord]
    /// An MVPD if it is integrated and enabled for the requestor.
    func integratedMVPD(requestor: String, mvpd: String) async throws -> MVPDRecord?
}
