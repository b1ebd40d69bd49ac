import EntitleCore
import Foundation

/// What the login and logout flows share: the pages they open, the app's redirect URLs, and the profile a login
/// stores.
extension EntitlementEngine {
    /// Opens a login or logout page of `mvpd`: for an MVPD that requires SFSafariViewController, the app's
    /// `navigate(toUrl:useSVC: true)` when it handles that (`handleSVC`), else the SDK's own browser when it has one;
    /// `navigate(toUrl:)` otherwise.
    func openPage(_ url: String, mvpd: String?) {
        let requiresSVC = mvpd.flatMap { mvpdModel($0)?.requiresSafariViewController } ?? false
        if requiresSVC && !options.handleSVC, let presenter = settings.safariPresenter, let address = URL(string: url) {
            safariViewOpen = true
            spawn { _ in await presenter.open(address) }
        } else {
            emit([.navigate(url: url, useSVC: requiresSVC && options.handleSVC)])
        }
    }

    /// Closes the browser the SDK opened for an SFSafariViewController MVPD.
    func closeSafariView() {
        guard safariViewOpen, let presenter = settings.safariPresenter else { return }
        safariViewOpen = false
        spawn { _ in await presenter.close() }
    }

    /// The domain of the requestor's configuration at `provider` (sent as `domainName` with sessions).
    func domainName(at provider: URL) -> String? {
        requestor.configurations.first { $0.provider == provider }?.configuration.requestor.domains.first?.name
    }

    /// The app's own redirect URLs: the configured one and the registered custom schemes.
    func customRedirects() -> [String] {
        var result: [String] = []
        if let configured = settings.redirectURL { result.append(configured) }
        return result + requestor.registeredRedirects
    }

    /// The redirect URL of a session: the app's custom scheme for MVPDs that need SFSafariViewController, else
    /// `ADOBEPASS_REDIRECT_URL` — unless the registration does not allow it, then the app's custom scheme.
    func redirectURL(requiresSVC: Bool) -> String {
        let registeredCustom = requestor.registeredRedirects.filter { !ExternalURLMatcher(customRedirects: []).matches($0) }
        var custom = registeredCustom.first ?? settings.redirectURL
        if let configured = settings.redirectURL,
            requestor.registeredRedirects.isEmpty || ExternalURLMatcher(customRedirects: requestor.registeredRedirects).matches(configured)
        {
            custom = configured
        }
        if requiresSVC { return custom ?? ADOBEPASS_REDIRECT_URL }
        let allowsAdobePass = requestor.registeredRedirects.isEmpty || registeredCustom.count < requestor.registeredRedirects.count
        return allowsAdobePass ? ADOBEPASS_REDIRECT_URL : (custom ?? ADOBEPASS_REDIRECT_URL)
    }

    /// Keeps the profile a login (page, registration code or platform SSO) obtained, and selects its MVPD.
    func store(profile: Profile, mvpd: String, provider: URL) {
        update { state in
            state.profiles[mvpd] = LocalState.Entry(provider: provider.absoluteString, profile: profile)
            state.selectedMVPD = mvpd
        }
        authorization.preauthorizations.clear()
    }
}
