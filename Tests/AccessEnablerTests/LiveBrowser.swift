import EntitleCore
import Foundation
@testable import AccessEnabler

/// A tiny cookie-keeping browser for the live tests: follows redirects, fills the DemoMVPD login form, submits
/// auto-post forms, and stops when a redirect goes to the app's redirect URL (as a web view delegate would).
final class LiveBrowser: Sendable {
    private let transport = URLSessionTransport(timeout: 10)
    private let cookies = Locked<[String: String]>([:])

    /// Opens `url` and plays the user: logs in with `username`/`password` on a login form, submits auto-post forms.
    /// Returns the URL that left the web (`adobepass://…` or the custom scheme), or nil when the flow ended on a page.
    func run(_ url: String, username: String? = nil, password: String? = nil, stopPrefixes: [String]) async throws -> String? {
        var request = HTTPRequest(method: "GET", url: URL(string: url)!)
        var loggedIn = false
        for _ in 0..<30 {
            let response = try await send(request)
            if (300..<400).contains(response.status), let location = response.header("Location") {
                if stopPrefixes.contains(where: { location.lowercased().hasPrefix($0) }) { return location }
                request = HTTPRequest(method: "GET", url: URL(string: location, relativeTo: request.url)!.absoluteURL)
                continue
            }
            let html = String(decoding: response.body, as: UTF8.self)
            // The service's "Signed in — return to your app" page hands over to a custom scheme with a meta refresh.
            if let meta = html.range(of: "<meta http-equiv=\"refresh\" content=\"0;url=") {
                let target = XMLEscape.unescape(String(html[meta.upperBound...].prefix { $0 != "\"" }))
                if stopPrefixes.contains(where: { target.lowercased().hasPrefix($0) }) { return target }
            }
            guard let form = Self.form(in: html) else { return nil }
            var fields = form.fields
            if fields.contains(where: { $0.0 == "password" }) {
                guard !loggedIn, let username, let password else { return nil }
                loggedIn = true
                fields = fields.map { $0.0 == "username" ? ($0.0, username) : $0.0 == "password" ? ($0.0, password) : $0 }
            }
            let action = URL(string: form.action, relativeTo: request.url)!.absoluteURL
            request = HTTPRequest(method: "POST", url: action, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                  body: Data(FormURLEncoding.encode(fields).utf8))
        }
        return nil
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        let jar = cookies.value
        if !jar.isEmpty { request.headers["Cookie"] = jar.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if ProcessInfo.processInfo.environment["ENTITLE_LIVE_TRACE"] != nil { print("LIVE", request.method, request.url.absoluteString.prefix(160)) }
        let response = try await transport.send(request)
        if let header = response.header("Set-Cookie") { cookies.withLock { jar in Self.parseCookies(header, into: &jar) } }
        return response
    }

    static func parseCookies(_ header: String, into jar: inout [String: String]) {
        let attributes: Set<String> = ["expires", "path", "domain", "max-age", "samesite", "secure", "httponly"]
        for segment in header.components(separatedBy: ",") {
            let first = segment.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            let parts = first.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(" "), !attributes.contains(parts[0].lowercased()) else { continue }
            jar[parts[0]] = parts[1]
        }
    }

    static func form(in html: String) -> (action: String, fields: [(String, String)])? {
        guard let formRange = html.range(of: #"<form[^>]*>"#, options: .regularExpression) else { return nil }
        let tag = String(html[formRange])
        let action = attribute("action", in: tag) ?? ""
        var fields: [(String, String)] = []
        var rest = html[formRange.upperBound...]
        while let input = rest.range(of: #"<input[^>]*>"#, options: .regularExpression) {
            let inputTag = String(rest[input])
            if let name = attribute("name", in: inputTag) { fields.append((name, attribute("value", in: inputTag) ?? "")) }
            rest = rest[input.upperBound...]
        }
        return (XMLEscape.unescape(action), fields.map { ($0.0, XMLEscape.unescape($0.1)) })
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: " \(name)=\"[^\"]*\"", options: .regularExpression) else { return nil }
        return String(tag[range].dropFirst(name.count + 3).dropLast())
    }
}
