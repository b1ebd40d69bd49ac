import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// HTML answers of the browser leg: a page's headers and redirects (the pages themselves are ``Pages``).
package enum HTMLPage {
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
