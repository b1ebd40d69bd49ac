import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SAML
import Testing

/// Shared keys, names and builders for the DemoMVPD tests.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let baseURL = "http://localhost/demo-mvpd"
    static let spEntityID = "https://sp.entitle.test/saml"
    static let acsURL = "https://sp.entitle.test/sp/saml/SAMLAssertionConsumer"
    static let sloURL = "https://sp.entitle.test/sp/saml/LogoutServiceHTTPRedirectResponse"
    static let apiKey = "demo-authz-test-key"

    // RSA key generation is slow: once per test process.
    static let idpIdentity = try! SigningIdentity.generate(commonName: "DemoMVPD test IdP", now: now.addingTimeInterval(-86_400))
    static let spIdentity = try! SigningIdentity.generate(commonName: "Entitle test SP", now: now.addingTimeInterval(-86_400))
    static let otherIdentity = try! SigningIdentity.generate(commonName: "Impostor", now: now.addingTimeInterval(-86_400))

    /// The trusted SP; signed requests required unless `signed` is false.
    static func serviceProvider(signed: Bool = true) -> TrustedServiceProvider {
        TrustedServiceProvider(
            entityID: spEntityID, assertionConsumerServiceURL: acsURL, singleLogoutURL: sloURL,
            certificates: signed ? [spIdentity.certificate] : [])
    }

    /// An application serving the demo MVPD under `/demo-mvpd`, with the clock `clock`.
    static func application(clock: TestClock = TestClock(now), signedRequests: Bool = true) -> some ApplicationProtocol {
        let configuration = DemoMVPDConfiguration(
            baseURL: baseURL, identity: idpIdentity, trustedServiceProviders: [serviceProvider(signed: signedRequests)],
            authorizationAPIKey: apiKey, clock: clock)
        let mvpd = DemoMVPD(configuration: configuration, logger: Logger(label: "demo-mvpd-test"))
        let router = Router()
        mvpd.addRoutes(to: router.group("demo-mvpd"))
        return Application(router: router)
    }

    /// An AuthnRequest as the Entitle service would send it to `providerID`.
    static func authnRequest(
        providerID: String = "DemoCable", issuer: String = spEntityID, acs: String = acsURL,
        forceAuthn: Bool = false, at date: Date = now
    ) -> AuthnRequest {
        AuthnRequest(
            id: AuthnRequest.newID(), issueInstant: date, issuer: issuer,
            destination: "\(baseURL)/\(providerID)/saml/sso", assertionConsumerServiceURL: acs,
            forceAuthn: forceAuthn)
    }

    /// The validator the Entitle service would use for `providerID`.
    static func validator(providerID: String) -> SAMLResponseValidator {
        SAMLResponseValidator(
            idpEntityID: "\(baseURL)/\(providerID)", idpCertificates: [idpIdentity.certificate],
            spEntityID: spEntityID, assertionConsumerServiceURL: acsURL)
    }

    static func subscriber(_ username: String) -> DemoSubscriber {
        DemoSubscriber.all.first { $0.username == username }!
    }
}

/// A settable clock.
/// The DemoMVPD tests' clock: the package's manual clock.
typealias TestClock = ManualClock

/// A minimal browser over the test client: keeps cookies (ignoring paths), posts forms.
struct TestBrowser {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    /// The attributes (lower-cased) of the last Set-Cookie seen per cookie name.
    var cookieAttributes: [String: String] = [:]

    init(_ client: any TestClientProtocol) { self.client = client }

    mutating func get(_ url: String) async throws -> TestResponse {
        try await send(url, method: .get, headers: [:], body: nil)
    }

    mutating func postForm(_ url: String, _ fields: [(String, String)]) async throws -> TestResponse {
        let body = FormURLEncoding.encode(fields)
        return try await send(
            url, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: body))
    }

    mutating func send(_ url: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let response = try await client.executeRequest(uri: pathAndQuery(url), method: method, headers: headers, body: body)
        for header in response.headers[values: .setCookie] {
            let parts = header.split(separator: ";", maxSplits: 1)
            let pair = parts[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            let value = pair.count > 1 ? String(pair[1]) : ""
            let attributes = parts.count > 1 ? String(parts[1]).lowercased() : ""
            cookieAttributes[name] = attributes
            if value.isEmpty || attributes.contains("max-age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }
}

/// `/path?query` of an absolute or relative URL.
func pathAndQuery(_ url: String) -> String {
    guard let range = url.range(of: "://") else { return url }
    let rest = url[range.upperBound...]
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    return String(rest[slash...])
}

/// The `value` of the `<input name="…">` in an HTML page (entities decoded).
func inputValue(_ name: String, in html: String) -> String? {
    let tagPattern = try! NSRegularExpression(pattern: "<input\\b[^>]*>", options: [.caseInsensitive])
    let attributePattern = try! NSRegularExpression(pattern: "([A-Za-z-]+)\\s*=\\s*\"([^\"]*)\"")
    let nsHTML = html as NSString
    for tag in tagPattern.matches(in: html, range: NSRange(location: 0, length: nsHTML.length)) {
        let tagText = nsHTML.substring(with: tag.range)
        var attributes: [String: String] = [:]
        for match in attributePattern.matches(in: tagText, range: NSRange(location: 0, length: (tagText as NSString).length)) {
            let key = (tagText as NSString).substring(with: match.range(at: 1)).lowercased()
            attributes[key] = XMLEscape.unescape((tagText as NSString).substring(with: match.range(at: 2)))
        }
        if attributes["name"] == name { return attributes["value"] ?? "" }
    }
    return nil
}

/// The `action` of the first form in an HTML page.
func formAction(in html: String) -> String? {
    let pattern = try! NSRegularExpression(pattern: "<form\\b[^>]*\\baction\\s*=\\s*\"([^\"]*)\"", options: [.caseInsensitive])
    guard let match = pattern.firstMatch(in: html, range: NSRange(location: 0, length: (html as NSString).length)) else {
        return nil
    }
    return XMLEscape.unescape((html as NSString).substring(with: match.range(at: 1)))
}

/// The query items of a URL (percent-decoded).
func queryItems(of url: String) -> [String: String] {
    var items: [String: String] = [:]
    for item in URLComponents(string: url)?.percentEncodedQueryItems ?? [] {
        items[item.name] = item.value?.removingPercentEncoding ?? ""
    }
    return items
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
