import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A web-flow client that knows nothing of Entitle: what open-source TV Everywhere clients do with Adobe's
/// `authenticate/saml` page. It GETs the start URL, posts the first form of the page with all its inputs, fills the
/// login form it receives (the password input by type, the user name by type or name, every other input kept), posts
/// it, posts the confirmation form that comes back, and follows redirects (keeping cookies per host) until a page
/// or a redirect it cannot load (a custom scheme). HTML is read by ``WebFlowHTML``, not by the project's clients.
package struct GenericWebFlowClient {
    /// One HTTP exchange: the method, the URL and the status answered.
    package struct Step: Sendable, Equatable {
        /// `GET` or `POST`.
        package var method: String
        /// The URL requested.
        package var url: String
        /// The status answered.
        package var status: Int

        /// Creates a step.
        package init(method: String, url: String, status: Int) {
            self.method = method
            self.url = url
            self.status = status
        }
    }

    /// Where a navigation ended: a page (URL, status, body) or a redirect to a URL the client does not load.
    package enum Landing: Sendable {
        /// A page.
        case page(url: String, status: Int, body: String)
        /// A redirect to a non-HTTP URL (an app's custom scheme).
        case external(String)
    }

    /// A failure of the flow, with what was expected.
    package struct FlowError: Error, CustomStringConvertible, Sendable {
        /// What went wrong.
        package var description: String
    }

    private let httpClient: HTTPClient
    private var cookies: [String: [String: String]] = [:]
    /// Every exchange so far, in order.
    package private(set) var steps: [Step] = []

    /// Creates a client on `httpClient`, which must not follow redirects itself.
    package init(httpClient: HTTPClient) { self.httpClient = httpClient }

    /// The whole sign-in: start page → its first form → the login form filled → the confirmation form → the end.
    package mutating func signIn(startURL: String, username: String, password: String) async throws -> Landing {
        let start = try await open(startURL, method: .GET, body: nil)
        guard case .page(let startPage, _, let startBody) = start, let first = WebFlowHTML.forms(in: startBody).first else {
            throw FlowError(description: "no form on the start page: \(start)")
        }
        let loginLanding = try await submit(first, from: startPage)
        guard case .page(let loginPage, let loginStatus, let loginBody) = loginLanding else {
            throw FlowError(description: "no login page after the first form: \(loginLanding)")
        }
        guard var login = WebFlowHTML.forms(in: loginBody).first(where: { $0.inputs.contains { $0.type == "password" } }) else {
            throw FlowError(description: "no form with a password input at \(loginPage) (HTTP \(loginStatus))")
        }
        guard let userIndex = login.inputs.firstIndex(where: Self.isUserNameInput) else {
            throw FlowError(description: "no user name input in the login form at \(loginPage)")
        }
        login.inputs[userIndex].value = username
        for index in login.inputs.indices where login.inputs[index].type == "password" { login.inputs[index].value = password }
        let confirmation = try await submit(login, from: loginPage)
        guard case .page(let confirmationPage, let status, let confirmationBody) = confirmation,
            let confirm = WebFlowHTML.forms(in: confirmationBody).first
        else {
            throw FlowError(description: "no confirmation form after the login: \(confirmation)")
        }
        guard status == 200 else { throw FlowError(description: "the login was refused (HTTP \(status))") }
        return try await submit(confirm, from: confirmationPage)
    }

    /// Whether an input is where the user name goes: type `email`, or a text input named like a user name.
    package static func isUserNameInput(_ input: WebFlowHTML.Input) -> Bool {
        if input.type == "email" { return true }
        guard input.type == "text" else { return false }
        let name = input.name.lowercased()
        return ["user", "login", "email", "account", "id"].contains { name.contains($0) }
    }

    /// Submits `form` of the page at `pageURL` to its action (resolved against the page) with its inputs.
    package mutating func submit(_ form: WebFlowHTML.Form, from pageURL: String) async throws -> Landing {
        let action = Self.resolve(form.action.isEmpty ? pageURL : form.action, against: pageURL)
        let encoded = Self.encode(form.submission)
        if form.method == "post" { return try await open(action, method: .POST, body: encoded) }
        return try await open(action + (action.contains("?") ? "&" : "?") + encoded, method: .GET, body: nil)
    }

    /// Requests `url`, following redirects (as GET) until a page or a non-HTTP location.
    package mutating func open(_ url: String, method: HTTPMethod, body: String?) async throws -> Landing {
        var url = url, method = method, body = body
        for _ in 0..<20 {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return .external(url) }
            var request = HTTPClientRequest(url: url)
            request.method = method
            request.headers.add(name: "User-Agent", value: "GenericWebFlowClient/1.0")
            let host = URL(string: url)?.host ?? ""
            if let jar = cookies[host], !jar.isEmpty {
                request.headers.add(name: "Cookie", value: jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: body))
            }
            let response = try await httpClient.execute(request, timeout: AnswerPatience.timeAmount)
            let text = String(buffer: try await response.body.collect(upTo: 4 * 1024 * 1024))
            steps.append(Step(method: method.rawValue, url: url, status: Int(response.status.code)))
            for header in response.headers["Set-Cookie"] {
                let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2 else { continue }
                let name = pair[0].trimmingCharacters(in: .whitespaces), value = String(pair[1])
                cookies[host, default: [:]][name] = value.isEmpty || header.lowercased().contains("max-age=0") ? nil : value
            }
            if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
                url = Self.resolve(location, against: url)
                method = .GET
                body = nil
                continue
            }
            return .page(url: url, status: Int(response.status.code), body: text)
        }
        throw FlowError(description: "too many redirects")
    }

    /// `location` resolved against `base` (absolute URLs and custom schemes as they are).
    static func resolve(_ location: String, against base: String) -> String {
        if let scheme = location.split(separator: ":", maxSplits: 1).first, location.contains(":"), !scheme.contains("/"),
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            return location
        }
        return URL(string: location, relativeTo: URL(string: base))?.absoluteString ?? location
    }

    /// `application/x-www-form-urlencoded` of the pairs (space as `+`).
    static func encode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._* ")
        func escape(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: " ", with: "+")
        }
        return fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }
}
