import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import Mustache

/// Renders the service's pages from ``PageTemplates``.
package struct Pages: Sendable {
    package let library: MustacheLibrary

    package init() {
        // The templates are constants of this module: failing to parse them is a programming error caught by the tests.
        PageEscaping.registered
        library = MustacheLibrary(templates: [
            "layout": try! MustacheTemplate(string: PageTemplates.layout),
            "activate": try! MustacheTemplate(string: PageTemplates.activate),
            "picker": try! MustacheTemplate(string: PageTemplates.picker),
            "message": try! MustacheTemplate(string: PageTemplates.message),
            "landing": try! MustacheTemplate(string: PageTemplates.landing),
        ])
    }

    package func render(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok, cookies: [Cookie] = []) -> Response {
        var response = HTMLPage.html(library.render(values, withTemplate: name) ?? "", status: status)
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// A page that says what happened and what to do next.
    /// `appLink` adds a "Return to your app" link; `refresh` hands the browser over to that URL at once.
    package func message(
        title: String, message: String, next: String? = nil, success: Bool = false, retry: Bool = false,
        appLink: String? = nil, refresh: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        var values: [String: Any] = ["title": title, "message": message, "kind": success ? "ok" : "error", "retry": retry]
        if let next { values["next"] = next }
        if let appLink { values["appLink"] = appLink }
        if let refresh { values["refresh"] = refresh }
        return render("message", values, status: status)
    }
}
