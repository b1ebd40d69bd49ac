import DemoMVPD
import EntitleDomain
import EntitleModel
import EntitleStorage
import SAML

extension DemoWorld {
    /// Demo Proxy, the demo world's proxy MVPD: imported from the DemoMVPD's metadata and integrated with `REF`, marked a
    /// proxy (not listed in pickers itself), authorized by signed XACML over SOAP at its `xacml/soap` endpoint, and its two
    /// proxied MVPDs — Valley Cable and Hills Fiber, their own names and logos, the DemoMVPD's entity ids of them as
    /// ProviderIDs — pushed through the operation behind Adobe's Proxy MVPD Web Service (only when they differ from
    /// what is stored, so a restart logs no push). Without `requestorIds`, both join every requestor of the proxy.
    static func seedDemoProxy(service: EntitleService, demo: DemoMVPD, demoBaseURL: String) async throws {
        let proxy = DemoProvider.demoProxy
        guard let metadata = demo.metadata(for: proxy.id) else { return }
        var options = MVPDOptions(
            displayName: proxy.displayName, logoURL: proxy.logoURL(baseURL: demoBaseURL),
            authorizationURL: "\(demoBaseURL)/\(proxy.id)/xacml/soap", authorizationKey: demo.configuration.authorizationAPIKey)
        options.authorizationProtocol = .xacml
        options.xacmlBinding = .soap
        options.signAuthorizationQueries = true
        options.encryptedAttributes = ["zip"]
        try await service.mvpds.importSAML(id: proxy.id, metadataXML: metadata.xml(), options: options, requestors: [requestorID])
        if try await service.repository.catalogStore.proxy(id: proxy.id) == nil {
            try await service.proxyMVPDs.markProxy(id: proxy.id, listed: false, allowedAddresses: [], actor: "demo-world")
        }
        let list = ProxiedMVPDList(
            entries: DemoMVPD.proxiedProviders.filter { $0.proxiedBy == proxy.id }.map { proxied in
                ProxiedMVPDList.Entry(
                    id: proxied.id, providerID: proxied.entityID(baseURL: demoBaseURL), displayName: proxied.displayName,
                    logoURL: proxied.logoURL(baseURL: demoBaseURL))
            })
        if try await service.proxyMVPDs.listXML(proxy: proxy.id) != list.xml() {
            try await service.proxyMVPDs.push(proxy: proxy.id, xml: list.xml(), pushedBy: "demo-world", actor: "demo-world")
        }
    }
}
