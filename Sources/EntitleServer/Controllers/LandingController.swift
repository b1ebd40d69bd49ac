import EntitleCore
import Foundation
import Hummingbird

/// `GET /`: a landing page for a person who opens the service's base URL — what runs here and where to go next.
struct LandingController: Sendable {
    /// The service's public base URL.
    let publicBaseURL: String
    /// Whether the DemoMVPD is mounted under `/demo-mvpd`.
    let demo: Bool

    /// Adds `GET /`.
    func addRoutes(to router: Router<AppContext>) {
        let base = publicBaseURL, demo = demo
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
            let links = items.map { path, title, what in
                "<li><a href=\"\(XMLEscape.html(path))\">\(XMLEscape.html(title))</a> — \(XMLEscape.html(what))</li>"
            }.joined(separator: "\n")
            return HTMLPage.html(
                """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Entitle service</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
                h1{font-size:1.5rem}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style></head><body><main>
                <h1>Entitle is running here</h1>
                <p>An Adobe Pass–compatible TV Everywhere authentication service: REST API v2 with Dynamic Client Registration,
                SAML 2.0 federation with TV providers (MVPDs), authorization decisions and short media tokens\(demo ? ", with the DemoMVPD mounted at <code>/demo-mvpd</code>" : "").</p>
                <ul id="links">
                \(links)
                </ul>
                <p>Try it from a terminal: <code>entitle device login --server \(XMLEscape.html(base))</code> shows a code to enter on the activation page.</p>
                <p>Documentation: <code>README.md</code> (walk-through, administration) and <code>docs/</code>
                (<code>access-enabler.md</code> for apps, <code>media-token-verifier.md</code> for video servers) in the Entitle source.</p>
                </main></body></html>
                """)
        }
    }
}
