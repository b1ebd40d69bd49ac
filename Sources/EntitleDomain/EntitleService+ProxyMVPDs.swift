import EntitleStorage

extension EntitleService {
    /// Proxy MVPDs: the operator's commands and the Proxy MVPD Web Service.
    package var proxyMVPDs: ProxyMVPDOperations {
        ProxyMVPDOperations(
            catalog: repository.catalogStore, onboarding: repository.catalogAdminStore, clients: repository.clientStore, tokens: tokens,
            changes: changes,
            clock: clock)
    }
}
