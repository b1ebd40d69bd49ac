import EntitleCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A minimal browser over real HTTP: keeps cookies, follows redirects, submits forms. It stops at a redirect to a
/// non-HTTP scheme (such as `adobepass://ios.app`), as an app's web view hands that URL to the app.
package actor BrowserClient {
    /// A page the browser landed on.
    package struct Page: Sendable {
        /// The page URL.
        package let url: String
        /// HTTP status.
        package let status: Int
        /// Body text.
        package let body: String
        /// The forms in the page.
        package var forms: [HTMLForm] { HTMLForm.forms(in: body) }
    }

    /// Where a navigation ended.
    package enum Outcome: Sendable {
        /// An HTTP page.
        case page(Page)
        /// A redirect to a URL the browser does not load (a custom scheme).
        case external(String)
    }

    private let transport: ServiceTransport
    private var cookies: [String: [String: String]] = [:]

    /// Creates a browser on an HTTP client (which must not follow redirects).
    package init(httpClient: HTTPClient) { self.transport = .httpClient(httpClient) }

    /// Creates a browser on `transport`.
    package init(transport: ServiceTransport) { self.transport = transport }

    /// Loads a URL, following redirects.
    package func get(_ url: String) async throws -> Outcome {
        try await navigate(method: .GET, url: url, body: nil)
    }

    /// Submits a form of `page`, resolving its action against the page URL.
    package func submit(_ form: HTMLForm, from page: Page) async throws -> Outcome {
        let action = resolve(form.action.isEmpty ? page.url : form.action, against: page.url)
        let encoded = FormURLEncoding.encode(form.fields)
        if form.method == "post" { return try await navigate(method: .POST, url: action, body: encoded) }
        return try await navigate(method: .GET, url: action + (action.contains("?") ? "&" : "?") + encoded, body: nil)
    }

    /// What a browser running the page's script does with a page that submits its first form on load
    /// (`document.forms[0].submit()`, such as an auto-posting SAML form): submits that form. Any other outcome is
    /// returned unchanged. Tests that want to stop at such a page (to alter or replay it) simply do not call this.
    package func followingAutoPost(_ outcome: Outcome) async throws -> Outcome {
        guard case .page(let page) = outcome, page.body.contains("document.forms[0].submit()"), let form = page.forms.first else {
            return outcome
        }
        return try await submit(form, from: page)
    }

    private func navigate(method: HTTPMethod, url start: String, body start2: String?) async throws -> Outcome {
        var url = start, method = method, body = start2
        for _ in 0..<20 {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return .external(url) }
            var request = ServiceTransport.Request(method: method, url: url, headers: [:])
            request.headers.add(name: "User-Agent", value: "EntitleBrowserClient/1.0")
            if let cookie = cookieHeader(for: url) { request.headers.add(name: "Cookie", value: cookie) }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = Data(body.utf8)
            }
            let response = try await transport.send(request)
            storeCookies(response.headers, for: url)
            let text = response.text
            if (300..<400).contains(response.status), let location = response.headers.first(name: "Location") {
                url = resolve(location, against: url)
                method = .GET
                body = nil
                continue
            }
            // A page that hands the browser over to an app's custom scheme at once (meta refresh) ends there too.
            if let handover = Self.metaRefreshTarget(text), !handover.hasPrefix("http://"), !handover.hasPrefix("https://") {
                return .external(handover)
            }
            return .page(Page(url: url, status: response.status, body: text))
        }
        throw BrowserError("Too many redirects from \(start).")
    }

    private func host(of url: String) -> String { URL(string: url)?.host ?? "" }

    private func cookieHeader(for url: String) -> String? {
        guard let jar = cookies[host(of: url)], !jar.isEmpty else { return nil }
        return jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    private func storeCookies(_ headers: HTTPHeaders, for url: String) {
        for header in headers["Set-Cookie"] {
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces), value = String(pair[1])
            let expired = header.lowercased().contains("max-age=0") || value.isEmpty
            if expired { cookies[host(of: url), default: [:]][name] = nil } else { cookies[host(of: url), default: [:]][name] = value }
        }
    }

    /// The URL of an immediate `<meta http-equiv="refresh" content="0;url=…">`, unescaped.
    static func metaRefreshTarget(_ html: String) -> String? {
        guard let meta = html.range(of: "<meta http-equiv=\"refresh\" content=\"0;url=") else { return nil }
        let rest = html[meta.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return XMLEscape.unescape(String(rest[..<end]))
    }

    /// Resolves a possibly relative URL.
    func resolve(_ location: String, against base: String) -> String {
        if location.contains("://") || location.hasPrefix("adobepass:") { return location }
        if let custom = location.split(separator: ":", maxSplits: 1).first, !custom.contains("/"), location.contains(":"),
            !location.hasPrefix("/")
        {
            return location
        }
        return URL(string: location, relativeTo: URL(string: base))?.absoluteString ?? location
    }

}

/// A browser-level failure.
package struct BrowserError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package let description: String
    /// Creates an error.
    package init(_ description: String) { self.description = description }
}
