import EntitleStorage

extension EntitleService {
    /// Proxy MVPDs: the operator's commands and the Proxy MVPD Web Service.
    package var proxyMVPDs: ProxyMVPDOperations {
        ProxyMVPDOperations(
            catalog: repository.catalog, onboarding: repository.onboarding, clients: repository.clients, tokens: tokens, changes: changes,
            clock: clock)
    }
}
