/// One of the MVPDs the built-in demo MVPD plays (design: the demo world).
package struct DemoProvider: Sendable, Equatable, Hashable {
    /// The MVPD id, also the path segment under the mount point (`DemoCable`).
    package let id: String
    /// The name shown to users (`Demo Cable`).
    package let displayName: String
    /// Whether the MVPD answers SAML Single Logout requests.
    package let supportsSingleLogout: Bool
    /// Whether apps must present its login page in SFSafariViewController (`handleSVC` flows).
    package let requiresSafariViewController: Bool
    /// Whether the MVPD takes part in Apple platform single sign-on (`enablePlatformServices`).
    package let platformSSO: Bool
    /// The brand colour used by the logo and the login page.
    package let brandColor: String
    /// Whether users sign in with OAuth 2.0 (``DemoMVPD`` `{mvpd}/oauth2/…`) rather than SAML.
    package var signsInWithOAuth2 = false
    /// A proxy MVPD's id when this MVPD is one of its proxied MVPDs: it has no IdP of its own and signs in through the
    /// proxy's endpoints, which answer in its name (``DemoMVPD/proxiedProviders``).
    package var proxiedBy: String? = nil
    /// Whether this MVPD is a proxy MVPD: its SSO endpoint signs in with the proxied MVPD the AuthnRequest's Scoping
    /// names, its authorization and Single Logout endpoints answer for its proxied MVPDs (``DemoMVPD/proxies``).
    package var isProxy = false

    /// Creates a provider description.
    package init(
        id: String, displayName: String, supportsSingleLogout: Bool, requiresSafariViewController: Bool,
        platformSSO: Bool, brandColor: String
    ) {
        self.id = id
        self.displayName = displayName
        self.supportsSingleLogout = supportsSingleLogout
        self.requiresSafariViewController = requiresSafariViewController
        self.platformSSO = platformSSO
        self.brandColor = brandColor
    }

    /// The logo's URL when the demo MVPD is mounted at `baseURL`.
    package func logoURL(baseURL: String) -> String { "\(baseURL)/\(id)/logo.svg" }

    /// The IdP entity ID when the demo MVPD is mounted at `baseURL`.
    package func entityID(baseURL: String) -> String { "\(baseURL)/\(id)" }

    /// The SSO endpoint when the demo MVPD is mounted at `baseURL`: GET for the HTTP-Redirect binding, POST for the
    /// HTTP-POST binding. A proxied MVPD's is its proxy's.
    package func singleSignOnURL(baseURL: String) -> String { "\(baseURL)/\(endpointID)/saml/sso" }

    /// The id of the MVPD whose endpoints serve this one: its proxy's for a proxied MVPD, else its own.
    package var endpointID: String { proxiedBy ?? id }

    /// The HTTP-Redirect SLO endpoint when mounted at `baseURL`; nil when the MVPD has no Single Logout.
    package func singleLogoutURL(baseURL: String) -> String? {
        supportsSingleLogout ? "\(baseURL)/\(endpointID)/saml/slo" : nil
    }

    /// A self-contained SVG logo (no external assets, no scripts).
    package var logoSVG: String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="200" height="56" viewBox="0 0 200 56" role="img" \
        aria-label="\(displayName)"><rect x="1" y="1" width="198" height="54" rx="12" fill="\(brandColor)"/>\
        <circle cx="28" cy="28" r="14" fill="#ffffff" fill-opacity="0.9"/>\
        <path d="M23 20 L37 28 L23 36 Z" fill="\(brandColor)"/>\
        <text x="52" y="35" font-family="Helvetica, Arial, sans-serif" font-size="20" font-weight="bold" \
        fill="#ffffff">\(displayName)</text></svg>
        """
    }
}

extension DemoProvider {
    /// Demo Cable: plain SAML 2.0 login, no Single Logout.
    package static let demoCable = DemoProvider(
        id: "DemoCable", displayName: "Demo Cable", supportsSingleLogout: false,
        requiresSafariViewController: false, platformSSO: false,
        brandColor: "#1f5fbf")
    /// Demo Fiber: login in SFSafariViewController, SAML Single Logout.
    package static let demoFiber = DemoProvider(
        id: "DemoFiber", displayName: "Demo Fiber", supportsSingleLogout: true,
        requiresSafariViewController: true, platformSSO: false,
        brandColor: "#0a7d4f")
    /// Demo Stream: an OAuth 2.0 MVPD (authorization code with PKCE, a userinfo endpoint, logout).
    package static let demoStream: DemoProvider = {
        var provider = DemoProvider(
            id: "DemoStream", displayName: "Demo Stream", supportsSingleLogout: false, requiresSafariViewController: false,
            platformSSO: false, brandColor: "#c2410c")
        provider.signsInWithOAuth2 = true
        return provider
    }()
    /// Demo SSO TV: takes part in Apple platform single sign-on.
    package static let demoSSO = DemoProvider(
        id: "DemoSSO", displayName: "Demo SSO TV", supportsSingleLogout: false,
        requiresSafariViewController: false, platformSSO: true,
        brandColor: "#8a2be2")
}

extension DemoProvider {
    /// Demo Proxy: a proxy MVPD (Adobe's proxy SAML integration) signing in the subscribers of Valley Cable and
    /// Hills Fiber, with Single Logout; never in a picker itself.
    package static let demoProxy: DemoProvider = {
        var provider = DemoProvider(
            id: "DemoProxy", displayName: "Demo Proxy", supportsSingleLogout: true, requiresSafariViewController: false,
            platformSSO: false, brandColor: "#475569")
        provider.isProxy = true
        return provider
    }()
    /// Valley Cable: proxied by Demo Proxy.
    package static let demoValley = proxied(id: "DemoValley", displayName: "Valley Cable", brandColor: "#0e7490")
    /// Hills Fiber: proxied by Demo Proxy.
    package static let demoHills = proxied(id: "DemoHills", displayName: "Hills Fiber", brandColor: "#7c3aed")

    private static func proxied(id: String, displayName: String, brandColor: String) -> DemoProvider {
        var provider = DemoProvider(
            id: id, displayName: displayName, supportsSingleLogout: true, requiresSafariViewController: false, platformSSO: false,
            brandColor: brandColor)
        provider.proxiedBy = "DemoProxy"
        return provider
    }
}
