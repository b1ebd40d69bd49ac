/// An MVPD marked as a proxy: one SAML integration that signs in the subscribers of the proxied MVPDs it pushes
/// through the Proxy MVPD Web Service.
package struct ProxyMVPDRecord: Sendable, Equatable, Codable {
    /// The proxy's MVPD id.
    package var mvpdId: String
    /// Whether the proxy is also an MVPD in its own right, shown in its requestors' pickers (otherwise only its proxied
    /// MVPDs are).
    package var listed: Bool
    /// CIDR ranges pushes may come from (empty: any address).
    package var allowedAddresses: [String]

    /// Creates the value from each of its stored properties.
    package init(mvpdId: String, listed: Bool, allowedAddresses: [String]) {
        self.mvpdId = mvpdId
        self.listed = listed
        self.allowedAddresses = allowedAddresses
    }
}

/// A proxied MVPD as its proxy pushed it (Adobe's `<proxiedMvpd>`).
package struct ProxiedMVPDRecord: Sendable, Equatable, Codable {
    /// The proxied MVPD's id (its MVPD id here).
    package var id: String
    /// The proxy.
    package var proxyMvpdId: String
    /// The `ProviderID` sent in the AuthnRequest's IDPEntry and expected as the answer's Issuer (nil: the id).
    package var providerId: String?
    /// Display name, as pushed.
    package var displayName: String
    /// Logo URL (may be empty), as pushed.
    package var logoURL: String
    /// The display name and logo an operator gave it instead (nil: the pushed one), kept across pushes.
    package var operatorDisplayName: String? = nil
    package var operatorLogoURL: String? = nil
    /// The login page's iframe size, when it is shown in an iframe.
    package var iframeHeight: Int64?
    package var iframeWidth: Int64?
    /// The requestors it is integrated with; nil: every requestor its proxy is integrated with.
    package var requestorIds: [String]?
    /// Who pushed it (the client id) and when (ms).
    package var pushedBy: String
    package var pushedAt: Int64

    /// The SAML entity id (Issuer) of the proxied MVPD: its ProviderID, else its id.
    package var entityID: String { providerId ?? id }

    /// Creates the value from each of its stored properties.
    package init(
        id: String, proxyMvpdId: String, providerId: String?, displayName: String, logoURL: String, iframeHeight: Int64? = nil,
        iframeWidth: Int64? = nil, requestorIds: [String]?, pushedBy: String, pushedAt: Int64
    ) {
        self.id = id
        self.proxyMvpdId = proxyMvpdId
        self.providerId = providerId
        self.displayName = displayName
        self.logoURL = logoURL
        self.iframeHeight = iframeHeight
        self.iframeWidth = iframeWidth
        self.requestorIds = requestorIds
        self.pushedBy = pushedBy
        self.pushedAt = pushedAt
    }
}
