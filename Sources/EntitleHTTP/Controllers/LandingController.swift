import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// `GET /`: a landing page for a person who opens the service's base URL — what runs here and where to go next.
package struct LandingController: Sendable {
    /// The service's public base URL.
    package let publicBaseURL: String
    /// Whether the DemoMVPD is mounted under `/demo-mvpd`.
    package let demo: Bool
    package let pages: Pages

    /// Adds `GET /`.
    package func addRoutes(to router: Router<AppContext>) {
        let base = publicBaseURL, demo = demo, pages = pages
        router.get("/") { _, _ in
            var items = [
                ("/activate", "Activation page", "enter the code a TV or device shows, pick a TV provider, sign in"),
                ("/openapi.json", "OpenAPI document", "every route of the REST API v2 and Dynamic Client Registration"),
                ("/keys/media-token", "Media-token keys", "the certificates a video server verifies short media tokens with"),
                ("/sp/saml/metadata", "SAML SP metadata", "what an MVPD's identity provider needs to trust this service"),
                ("/healthz", "Health", "liveness and readiness"),
            ]
            if demo {
                items.append(
                    (
                        "/demo-mvpd/DemoCable/saml/metadata", "DemoMVPD",
                        "the demo identity provider's SAML metadata (also DemoFiber, DemoSSO), the kind of file entitle admin mvpd add --saml-metadata reads"
                    ))
            }
            let links = items.map { path, title, what in LandingPage.Link(path: path, title: title, what: what) }
            return pages.render(LandingPage(links: links, demo: demo, base: base))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(publicBaseURL: String, demo: Bool, pages: Pages) {
        self.publicBaseURL = publicBaseURL
        self.demo = demo
        self.pages = pages
    }
}
