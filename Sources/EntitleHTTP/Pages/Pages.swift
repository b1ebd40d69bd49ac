import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Mustache

/// Renders the service's pages from the templates under `templates/pages/` (``PageTemplates``).
package struct Pages: Sendable {
    package let library: MustacheLibrary

    package init(_ templates: PageTemplates) { library = templates.pages }

    /// The page of `content`, rendered by its template.
    package func render<Content: PageContent>(_ content: Content, status: HTTPResponse.Status = .ok, cookies: [Cookie] = []) -> Response {
        var response = HTMLPage.html(library.render(content, withTemplate: Content.template) ?? "", status: status)
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// A page that says what happened and what to do next.
    /// `appLink` adds a "Return to your app" link; `refresh` hands the browser over to that URL at once.
    package func message(
        title: String, message: String, next: String? = nil, success: Bool = false, retry: Bool = false,
        appLink: String? = nil, refresh: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        render(
            MessagePage(
                title: title, message: message, kind: success ? "ok" : "error", retry: retry, next: next, appLink: appLink, refresh: refresh),
            status: status)
    }

    /// A plain page with a title and a message, no layout, for the dead ends of the browser leg (bad sign-in links,
    /// signed out).
    package func plainMessage(title: String, message: String, status: HTTPResponse.Status = .ok) -> Response {
        render(PlainMessagePage(title: title, message: message), status: status)
    }
}
