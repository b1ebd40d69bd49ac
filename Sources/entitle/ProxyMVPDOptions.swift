import ArgumentParser
import EntitleDomain

/// `entitle admin mvpd add … --proxy`: marks the MVPD as a proxy MVPD (issue 40), whose proxied MVPDs it pushes
/// through the Proxy MVPD Web Service.
struct ProxyMVPDOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "A proxy MVPD: it signs in the subscribers of the proxied MVPDs it pushes (Proxy MVPD Web Service).",
            discussion:
                "Its --requestor integrations are the requestors its proxied MVPDs without requestorIds join; the proxy itself is not in their pickers unless --proxy-listed."
        ))
    var proxy = false
    @Flag(help: "With --proxy: the proxy is also an MVPD in its own right, listed in its requestors' pickers.") var proxyListed = false
    @Option(
        name: .customLong("proxy-allowed-address"),
        help: "With --proxy: an address or CIDR range the proxy's pushes may come from (repeat; none: any address).")
    var proxyAllowedAddresses: [String] = []

    func validate(saml: Bool) throws {
        if !proxy && (proxyListed || !proxyAllowedAddresses.isEmpty) {
            throw ValidationError("--proxy-listed and --proxy-allowed-address need --proxy.")
        }
        if proxy && !saml { throw ValidationError("--proxy needs --saml-metadata: a proxy MVPD is a SAML 2.0 MVPD.") }
    }

    /// Marks the MVPD as a proxy when --proxy is given.
    func apply(mvpd: String, _ service: EntitleService) async throws {
        guard proxy else { return }
        try await service.proxyMVPDs.markProxy(id: mvpd, listed: proxyListed, allowedAddresses: proxyAllowedAddresses, actor: Admin.cliActor)
    }
}
