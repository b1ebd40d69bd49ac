import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Every route that sends the browser to a URL taken from the request, or keeps one for after the sign-in: the
/// hostile forms of a URL on the requestor's domain are refused, and an allowed URL is used in its normalized form.
@Suite struct RedirectTargetTests {
    /// `redirect_url` values a lenient parser reads as on REF's domain `ios.app` (or `127.0.0.1`) while a browser goes
    /// elsewhere, or that are not plain URLs: none may become a redirect.
    static let hostile: [String] = [
        "https://evil.example\\@ios.app/", "https://evil.example%5C@ios.app/", "https://evil.example@ios.app/",
        "https://evil.example%2F@ios.app/", "https://evil.example%2F.ios.app/", "https://evil.example%00.ios.app/",
        "https://evil.example%2Eios.app/", "https://evil.example\t.ios.app/", "https://ios.app\t@evil.example/",
        "https://evil.example\n.ios.app/", "https://evil.example\u{3002}ios.app/", "https://evil.example\u{FF0E}ios.app/",
        "https://\u{FF49}\u{FF4F}\u{FF53}.app/", "https://xn--ios-evil.example/", "https:\\\\evil.example\\ios.app",
        "https:///evil.example/ios.app", "http://127.0.0.1\\@evil.example/", "http://1.127.0.0.1/", "http://2130706433/",
        "adobepass://ios.app\\@evil.example", "adobepass://ios.app%5C", "adobepass://ios.app\t", "javascript://ios.app/%0Aalert(1)",
    ]

    /// A URL on REF's domain `ios.app` as a client may write it, and the form the service redirects to.
    static let written = "HTTPS://Www.IOS.App:443/Watch/Now?x=1&y=%2F#top"
    static let normalized = "https://www.ios.app/Watch/Now?x=1&y=%2F#top"

    /// A GET of `path` with `fields` as its query, without credentials.
    static func get(_ client: RESTClient, _ path: String, _ fields: [(String, String)]) async throws -> RESTClient.Answer {
        try await client.send(.GET, path + "?" + FormURLEncoding.encode(fields), authorized: false)
    }

    /// A reggie registration code of a new device (the v1 and adobe-services second-screen sign-in).
    static func registrationCode(_ client: RESTClient) async throws -> String {
        let answer = try await client.send(.POST, "/reggie/v1/REF/regcode", form: [("deviceId", "box-" + UUID().uuidString), ("format", "json")])
        let json = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        guard answer.status == 201, let code = json?["code"] as? String else { throw BrowserError("regcode: HTTP \(answer.status) \(answer.text)") }
        return code
    }

    /// The adobe-services logout page, called through `logout` with each hostile target and then the legitimate one:
    /// the signed-out page without a redirect, then a redirect to the normalized URL.
    static func expectLogoutRedirectsOnlyToTheNormalizedTarget(_ logout: (String) async throws -> RESTClient.Answer) async throws {
        for redirect in hostile {
            let answer = try await logout(redirect)
            #expect(answer.status == 200 && answer.headers.first(name: "Location") == nil, "\(redirect.debugDescription)")
            #expect(answer.text.contains("You are signed out"), "\(redirect.debugDescription)")
        }
        let allowed = try await logout(written)
        #expect(allowed.status == 302)
        #expect(allowed.headers.first(name: "Location") == normalized)
    }

    @Test func theLogoutPageWithoutATokenRedirectsOnlyToTheNormalizedTarget() async throws {
        try await RouterService.run { host in
            let client = try await host.client()
            func logout(_ redirect: String) async throws -> RESTClient.Answer {
                try await Self.get(client, "/adobe-services/logout", [("noflash", "true"), ("requestor_id", "REF"), ("redirect_url", redirect)])
            }
            try await Self.expectLogoutRedirectsOnlyToTheNormalizedTarget(logout)
            #expect(try await logout("adobepass://ios.app").headers.first(name: "Location") == "adobepass://ios.app")
        }
    }

    @Test func theLogoutPageWithATokenRedirectsOnlyToTheNormalizedTarget() async throws {
        try await RouterService.run { host in
            let client = try await host.client(device: "apple-tv")
            _ = try await host.signIn(client, user: "bob")
            let session = try await client.send(
                .POST, "/adobe-services/sessionDevice", form: [("_method", "GET"), ("requestor_id", "REF"), ("device_id", "apple-tv")])
            let start = try #require(session.text.range(of: "<authnToken>")), end = try #require(session.text.range(of: "</authnToken>"))
            let token = XMLEscape.unescape(String(session.text[start.upperBound..<end.lowerBound]))
            func logout(_ redirect: String) async throws -> RESTClient.Answer {
                try await Self.get(client, "/adobe-services/logout", [("authentication_token", token), ("redirect_url", redirect)])
            }
            try await Self.expectLogoutRedirectsOnlyToTheNormalizedTarget(logout)
        }
    }

    @Test func theAdobeServicesBrowserLegKeepsOnlyTheNormalizedTarget() async throws {
        try await RouterService.run { host in
            let client = try await host.client()
            func bind(_ redirect: String) async throws -> String? {
                let code = try await Self.registrationCode(client)
                let answer = try await Self.get(
                    client, "/adobe-services/authenticate/saml",
                    [("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF"), ("reg_code", code), ("redirect_url", redirect)])
                // On to the MVPD (a redirect or the auto-posting form), with or without the redirect URL.
                #expect(answer.status == 200 || answer.status == 302, "\(redirect.debugDescription): HTTP \(answer.status)")
                let session = try #require(try await host.service.repository.sessionStore.session(code: code))
                #expect(session.mvpdId == "DemoCable")
                return session.redirectUrl
            }
            for redirect in Self.hostile {
                #expect(try await bind(redirect) == nil, "\(redirect.debugDescription)")
            }
            #expect(try await bind(Self.written) == Self.normalized)
        }
    }

    @Test func theV1BrowserLegRefusesHostileTargetsAndSignsInToTheNormalizedOne() async throws {
        try await RouterService.run { host in
            let client = try await host.client()
            let code = try await Self.registrationCode(client)
            let fields: [(String, String)] = [
                ("reg_code", code), ("requestor_id", "REF"), ("mso_id", "DemoCable"), ("domain_name", "127.0.0.1"), ("noflash", "true"),
            ]
            for redirect in Self.hostile {
                let answer = try await Self.get(client, "/api/v1/authenticate", fields + [("redirect_url", redirect)])
                #expect(answer.status == 400 && answer.headers.first(name: "Location") == nil, "\(redirect.debugDescription)")
                #expect(answer.text.contains("The redirect URL is not registered"), "\(redirect.debugDescription)")
            }
            #expect(try await host.service.repository.sessionStore.session(code: code)?.redirectUrl == nil)
            // On the service's own host (127.0.0.1 is one of REF's domains), so the browser can follow it to the end.
            #expect(host.baseURL.hasPrefix("http://127.0.0.1:"))
            let written = "HTTP://127.0.0.1" + host.baseURL.dropFirst("http://127.0.0.1".count) + "/authenticated?via=v1"
            let normalized = host.baseURL + "/authenticated?via=v1"
            let url = host.baseURL + "/api/v1/authenticate?" + FormURLEncoding.encode(fields + [("redirect_url", written)])
            guard
                case .page(let landed) = try await DemoSignIn.signIn(
                    browser: host.browser(), authenticationURL: url, username: "alice", password: "alice-pass")
            else {
                Issue.record("the sign-in did not end on a page")
                return
            }
            #expect(landed.url == normalized)
            #expect(try await host.service.repository.sessionStore.session(code: code)?.redirectUrl == normalized)
        }
    }

    @Test func restV2KeepsOnlyARegisteredTargetInItsNormalizedForm() async throws {
        try await RouterService.run { host in
            let (_, statement) = try await host.service.applications.issueSoftwareStatement(
                requestor: "REF", name: "Web app", redirectURIs: ["https://app.example/cb", "adobepass://ios.app"])
            var client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "web-" + UUID().uuidString)
            _ = try await client.registerAndAuthorize(softwareStatement: statement)
            let variants =
                Self.hostile + [
                    "https://evil.example\\@app.example/cb", "https://evil.example%5C@app.example/cb", "https://evil.example@app.example/cb",
                    "https://app.example%2F@evil.example/cb", "https://app.example\t/cb", "https://app.example\u{3002}/cb",
                    "https://www.ios.app/",
                ]
            for redirect in variants {
                let answer = try await client.createSession(mvpd: "DemoCable", redirectURL: redirect)
                #expect(answer.status == 400 && answer.text.contains("invalid_parameter_redirect_url"), "\(redirect.debugDescription)")
                let logout = try await client.send(.GET, "/api/v2/REF/logout?" + FormURLEncoding.encode([("redirectUrl", redirect)]))
                #expect(logout.status == 400 && logout.text.contains("invalid_parameter_redirect_url"), "\(redirect.debugDescription)")
            }
            let created = try await client.createSession(mvpd: "DemoCable", redirectURL: "HTTPS://APP.example:443/cb")
            let code = try #require(try created.decode(SessionResponse.self).code)
            #expect(try await host.service.repository.sessionStore.session(code: code)?.redirectUrl == "https://app.example/cb")
        }
    }

    @Test func registrationTakesOnlyURLsThatParse() async throws {
        try await RouterService.run { host in
            for uri in ["https://evil.example\\@ios.app/", "https://user@ios.app/", "https://ios.app%2F/", "javascript:alert(1)", "app://a b"] {
                await #expect(throws: ConfigurationError.self, "\(uri.debugDescription)") {
                    _ = try await host.service.applications.issueSoftwareStatement(requestor: "REF", name: "App", redirectURIs: [uri])
                }
            }
        }
    }
}

/// The policy the routes above share, without a service.
@Suite struct RedirectURIPolicyTests {
    @Test func registeredTargetsMatchExactlyOrByTheirNormalizedForm() {
        let registered = ["adobepass://ios.app", "https://app.example/cb"]
        #expect(RedirectURIPolicy.allowedTarget("adobepass://ios.app", registered: registered) == "adobepass://ios.app")
        #expect(RedirectURIPolicy.allowedTarget("adobepass://ios.app/", registered: registered) == "adobepass://ios.app/")
        #expect(RedirectURIPolicy.allowedTarget("ADOBEPASS://ios.app", registered: registered) == nil)
        #expect(RedirectURIPolicy.allowedTarget("adobepass://ios.app.evil", registered: registered) == nil)
        #expect(RedirectURIPolicy.allowedTarget("https://APP.example:443/cb", registered: registered) == "https://app.example/cb")
        #expect(RedirectURIPolicy.allowedTarget("https://app.example/cb/", registered: registered) == "https://app.example/cb/")
        #expect(RedirectURIPolicy.allowedTarget("https://app.example/cb?x", registered: registered) == nil)
        #expect(RedirectURIPolicy.allowedTarget("https://evil@app.example/cb", registered: registered) == nil)
        #expect(
            RedirectURIPolicy.allowedTarget("https://evil.example\\@app.example/cb", registered: ["https://evil.example\\@app.example/cb"]) == nil)
    }

    @Test func domainTargetsMatchTheParsedHost() {
        let domains = ["ios.app", "127.0.0.1"]
        #expect(RedirectURIPolicy.domainTarget("https://Sub.IOS.app/x?y#z", domains: domains) == "https://sub.ios.app/x?y#z")
        #expect(RedirectURIPolicy.domainTarget("http://127.0.0.1:8080", domains: domains) == "http://127.0.0.1:8080/")
        for hostile in RedirectTargetTests.hostile {
            #expect(
                RedirectURIPolicy.allowedTarget(hostile, registered: ["adobepass://ios.app"], domains: domains) == nil, "\(hostile.debugDescription)")
        }
        for other in ["https://evilios.app/", "https://ios.app.evil.example/", "adobepass://ios.app", "https://127.0.0.1.evil.example/"] {
            #expect(RedirectURIPolicy.domainTarget(other, domains: domains) == nil, "\(other)")
        }
    }
}
