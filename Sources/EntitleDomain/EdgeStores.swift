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
        catalog = repository.catalogStore
        sessions = repository.sessionStore
        profiles = repository.profileStore
        clients = repository.clientStore
        legacy = repository.legacyStore
        mvpdOptions = repository.mvpdOptionsStore
        let catalogStore = repository.catalogStore
        databaseAnswers = { (try? await catalogStore.catalogVersion()) != nil }
    }
}
