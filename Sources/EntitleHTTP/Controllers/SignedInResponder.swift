import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Where the browser goes once a login completes: the second-screen "You are signed in with …" page, the app's
/// web redirect URL (302), or — for an app's custom scheme such as `adobepass://ios.app`, which a plain browser
/// cannot open — a page that says "Signed in with … — return to your app" and hands the browser over to the
/// redirect URL at once (meta refresh), so an app's web view still receives it.
package struct SignedInResponder: Sendable {
    /// Authentication sessions.
    package let sessions: any SignInSessionStoring
    /// Catalog reads.
    package let catalog: any CatalogReading
    package let configuration: ServiceConfiguration
    package let pages: Pages

    /// Schemes that run code or read local data: never put in a link or a meta refresh.
    private static let scriptSchemes: Set<String> = ["javascript", "data", "vbscript", "file", "blob", "about"]

    /// The answer that ends a successful login of session `code` whose browser goes to `redirect`.
    package func signedInResponse(redirect: String, code: String?) async throws -> Response {
        let session = try await code.flatMap(RegistrationCode.normalize).asyncMap { try await sessions.session(code: $0) } ?? nil
        let mvpd = try await session?.mvpdId.asyncMap { try await catalog.mvpd(id: $0) } ?? nil
        if redirect == configuration.authenticatedPageURL {
            guard let mvpd else { return HTMLPage.redirect(to: redirect) }
            return HTMLPage.redirect(to: redirect + "?" + FormURLEncoding.encode([("mvpd", mvpd.id)]))
        }
        let scheme = redirect.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        // Only an app's own scheme gets the page (a link and a meta refresh to it); anything else is redirected as before.
        guard scheme != "http", scheme != "https", !Self.scriptSchemes.contains(scheme),
            scheme.first?.isLetter == true, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        else { return HTMLPage.redirect(to: redirect) }
        let name = mvpd?.displayName ?? "your TV provider"
        return pages.message(
            title: "Signed in with \(name)", message: "Signed in with \(name) — return to your app.",
            next: "If your app does not open by itself, use the link below.", success: true,
            appLink: redirect, refresh: redirect)
    }

    /// Creates the value from each of its stored properties.
    package init(sessions: any SignInSessionStoring, catalog: any CatalogReading, configuration: ServiceConfiguration, pages: Pages) {
        self.sessions = sessions
        self.catalog = catalog
        self.configuration = configuration
        self.pages = pages
    }
}
