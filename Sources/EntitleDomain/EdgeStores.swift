import EntitleModel
import EntitleStorage

/// The stores the HTTP edge reads and writes through, as EntitleModel's protocols: the edge never names a SQL store
/// (EntitleHTTP does not depend on EntitleStorage), and a test can hand it other implementations.
package struct EdgeStores: Sendable {
    package let catalog: any CatalogReading
    package let sessions: any SignInSessionStoring
    package let profiles: any ProfileStoring
    package let clients: any ClientStoring
    package let legacy: any LegacyStoring
    package let mvpdOptions: any MVPDOptionsReading
    /// Whether the database answers a read of the catalog version (so the schema is there): readiness.
    package let databaseAnswers: @Sendable () async -> Bool

    /// The stores of a repository.
    package init(repository: Repository) {
        catalog = repository.catalog
        sessions = repository.sessions
        profiles = repository.profiles
        clients = repository.clients
        legacy = repository.legacy
        mvpdOptions = repository.mvpdOptions
        let catalogStore = repository.catalog
        databaseAnswers = { (try? await catalogStore.catalogVersion()) != nil }
    }
}
