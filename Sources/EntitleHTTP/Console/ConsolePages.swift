import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Mustache

/// Renders the console's pages (``ConsoleTemplates``) with the frame every page shares — the signed-in operator, the
/// CSRF token, what the role may do, the message of the last change — and the console's strict security headers.
package struct ConsolePages: Sendable {
    package let library: MustacheLibrary

    /// The forms whose "why" field carries an id of its own (see ``ConsoleTemplates/description``).
    package static let formIDs = [
        "issue-statement", "set-degradation", "reset-temppass", "set-authorization-ttl", "set-media-token-algorithm", "add-mvpd", "add-oauth2-mvpd",
        "edit-mvpd", "toggle-mvpd", "remove-mvpd",
        "preflight-mvpd",
    ]

    /// The console's Content-Security-Policy: scripts, styles and fetches from the service only, nothing inline, forms
    /// posted only to the service, never framed.
    package static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    package init() {
        // The templates are constants of this module: failing to parse them is a programming error caught by the tests.
        PageEscaping.registered
        let templates: [String: String] = [
            "layout": ConsoleTemplates.layout, "why": ConsoleTemplates.why, "description": ConsoleTemplates.description,
            "signIn": ConsoleTemplates.signIn, "message": ConsoleTemplates.message, "requestors": ConsoleTemplates.requestors,
            "requestor": ConsoleTemplates.requestor, "mvpds": ConsoleTemplates.mvpds, "mvpd": ConsoleTemplates.mvpd,
            "keys": ConsoleTemplates.keys, "operators": ConsoleTemplates.operators, "changes": ConsoleTemplates.changes,
            "reports": ConsoleTemplates.reports,
        ]
        library = MustacheLibrary(templates: templates.mapValues { try! MustacheTemplate(string: $0) })
    }

    /// A page of the signed-in console: `values` plus the frame's values; `nav` names the menu entry it belongs to.
    package func page(
        _ name: String, title: String, nav: String, _ values: [String: Any], identity: OperatorIdentity, flash: ConsoleFlash?,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var all = values
        all["title"] = title
        all["username"] = identity.username
        all["role"] = identity.role.rawValue
        all["csrf"] = identity.csrfToken
        all["mayChange"] = identity.role.mayChange
        all["nav" + nav] = true
        all["form"] = Dictionary(uniqueKeysWithValues: Self.formIDs.map { ($0, ["formID": $0]) })
        if let flash { all["flash"] = ["kind": flash.isError ? "error" : "ok", "text": flash.text, "error": flash.isError] }
        var response = html(library.render(all, withTemplate: name) ?? "", status: status)
        if flash != nil { response.setCookie(ConsoleFlash.clearing) }
        return response
    }

    /// A page that says why a request was refused.
    package func problem(_ failure: ConsoleFailure, identity: OperatorIdentity, back: String) -> Response {
        page(
            "message", title: failure.status == .forbidden ? "Not allowed" : "Cannot do that", nav: "",
            ["message": failure.message, "back": back], identity: identity, flash: nil, status: failure.status)
    }

    /// The sign-in page; `login` is the value of the sign-in form's anti-forgery field.
    package func signIn(login: String, username: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var values: [String: Any] = ["login": login, "username": username]
        if let error { values["error"] = error }
        return html(library.render(values, withTemplate: "signIn") ?? "", status: status)
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
