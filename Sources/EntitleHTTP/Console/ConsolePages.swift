import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Mustache

/// Renders the console's pages (the templates under `templates/console/`, ``PageTemplates``) with the frame every page
/// shares (``ConsoleFrame``: the signed-in operator, the CSRF token, what the role may do, the message of the last
/// change) and the console's strict security headers.
package struct ConsolePages: Sendable {
    package let library: MustacheLibrary

    /// The forms whose "why" field carries an id of its own (see `templates/console/description.mustache`).
    package static let formIDs = [
        "issue-statement", "set-degradation", "reset-temppass", "set-authorization-ttl", "set-media-token-algorithm", "add-mvpd", "add-oauth2-mvpd",
        "edit-mvpd", "toggle-mvpd", "remove-mvpd",
        "preflight-mvpd", "hba-mvpd", "add-sso",
    ]

    /// The console's Content-Security-Policy: scripts, styles and fetches from the service only, nothing inline, forms
    /// posted only to the service, never framed.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    package init(_ templates: PageTemplates) { library = templates.console }

    /// A page of the signed-in console: `content` inside the frame; `nav` names the menu entry it belongs to.
    package func page<Content: ConsolePageContent>(
        _ content: Content, title: String, nav: ConsoleNav?, identity: OperatorIdentity, flash: ConsoleFlash?,
        status: HTTPResponse.Status = .ok, withinScope: Bool = false
    ) -> Response {
        let frame = ConsoleFrame(title: title, nav: nav, identity: identity, flash: flash, withinScope: withinScope)
        var response = html(library.render(ConsoleRendering(frame: frame, content: content), withTemplate: Content.template) ?? "", status: status)
        if flash != nil { response.setCookie(ConsoleFlash.clearing) }
        return response
    }

    /// A page that says why a request was refused.
    package func problem(_ failure: ConsoleFailure, identity: OperatorIdentity, back: String) -> Response {
        page(
            ConsoleMessagePage(message: failure.message, back: back), title: failure.status == .forbidden ? "Not allowed" : "Cannot do that",
            nav: nil, identity: identity, flash: nil, status: failure.status)
    }

    /// The sign-in page; `login` is the value of the sign-in form's anti-forgery field.
    package func signIn(login: String, username: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        html(library.render(ConsoleSignInPage(login: login, username: username, error: error), withTemplate: "signIn") ?? "", status: status)
    }

    /// An HTML answer with the console's headers.
    package func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .init("Content-Security-Policy")!: Self.contentSecurityPolicy, .init("X-Frame-Options")!: "DENY",
                .init("X-Content-Type-Options")!: "nosniff", .init("Referrer-Policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A 303 to `location` after a form, carrying the outcome for the next page.
    package static func redirect(to location: String, flash: ConsoleFlash? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        if let flash { response.setCookie(flash.cookie) }
        return response
    }
}

/// What the last change did, shown once on the next page: a short-lived cookie (the text is escaped when shown).
package struct ConsoleFlash: Sendable, Equatable {
    package var text: String
    package var isError: Bool

    package static let cookieName = "entitle_console_flash"

    /// The cookie that carries it to the next page.
    package var cookie: Cookie {
        let value = Data(((isError ? "e" : "o") + String(text.prefix(600))).utf8).base64URLEncodedString()
        return Cookie(name: Self.cookieName, value: value, maxAge: 60, path: "/console", httpOnly: true, sameSite: .strict)
    }

    /// The cookie that removes it once shown.
    package static let clearing = Cookie(name: cookieName, value: "", maxAge: 0, path: "/console", httpOnly: true, sameSite: .strict)

    /// The message a request carries, if any.
    package init?(request: Request) {
        guard let value = request.cookies[Self.cookieName]?.value, !value.isEmpty, let data = Data(base64URLEncoded: value),
            let text = String(data: data, encoding: .utf8), let first = text.first, first == "e" || first == "o"
        else { return nil }
        (self.text, isError) = (String(text.dropFirst()), first == "e")
    }

    package init(_ text: String, isError: Bool = false) { (self.text, self.isError) = (text, isError) }
}
