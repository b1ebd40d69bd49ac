import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Mustache

/// Small self-contained HTML pages for the browser leg (no external assets).
package enum HTMLPage {
    /// A page with a title and a message (the Mustache template ``PageTemplates/plainMessage``).
    package static func message(title: String, message: String, status: HTTPResponse.Status = .ok) -> Response {
        html(plainMessage.render(["title": title, "message": message]), status: status)
    }

    /// The template is a constant of this module: failing to parse it is a programming error caught by the tests.
    private static let plainMessage: MustacheTemplate = {
        PageEscaping.registered
        return try! MustacheTemplate(string: PageTemplates.plainMessage)
    }()

    /// An HTML response.
    package static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .init("Content-Security-Policy")!:
                    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action *; img-src 'self' data: https:",
                .init("X-Frame-Options")!: "DENY",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 302 redirect.
    package static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}
