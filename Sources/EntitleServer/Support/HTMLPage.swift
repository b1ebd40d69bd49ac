import EntitleCore
import Foundation
import Hummingbird

/// Small self-contained HTML pages for the browser leg (no external assets).
enum HTMLPage {
    /// A page with a title and a message.
    static func message(title: String, message: String, status: HTTPResponse.Status = .ok) -> Response {
        html("""
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XMLEscape.html(title))</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
            h1{font-size:1.5rem}</style></head><body><main><h1>\(XMLEscape.html(title))</h1><p>\(XMLEscape.html(message))</p></main></body></html>
            """, status: status)
    }

    /// An HTML response.
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                                           .init("Content-Security-Policy")!: "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action *; img-src 'self' data: https:",
                                           .init("X-Frame-Options")!: "DENY"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 302 redirect.
    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}
