import EntitleStorage

extension EntitleService {
    /// The catalog as code: export, plan and apply (`entitle admin catalog`, `/admin/api/catalog`).
    package var catalogAsCode: CatalogOperations {
        CatalogOperations(
            requestors: requestors, mvpds: mvpds, oauth2MVPDs: oauth2MVPDs, integrations: integrations, ssoIssuers: ssoIssuers,
            applications: applications, keyOperations: keyOperations, proxyMVPDs: proxyMVPDs, sso: repository.sso, clients: repository.clientStore,
            changes: changes, clock: clock)
    }
}
