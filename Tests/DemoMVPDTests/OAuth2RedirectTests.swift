import DemoMVPD
import EntitleCore
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML  // re-exports Crypto (SHA256)
import Testing

/// The OAuth 2.0 demo provider sends the browser only to a redirect URI on a trusted service provider's origin, parsed
/// once: hostile forms of that origin are refused, an allowed URI is used in its normalized form.
@Suite("DemoMVPD OAuth 2.0 redirect targets")
struct OAuth2RedirectTests {
    /// Redirect URIs a lenient parser reads as on the trusted SP's origin (`https://sp.entitle.test`) while a browser
    /// goes elsewhere, or that are not plain URLs.
    static let hostile: [String] = [
        "https://evil.example\\@sp.entitle.test/cb", "https://evil.example%5C@sp.entitle.test/cb", "https://evil.example@sp.entitle.test/cb",
        "https://evil.example%2F@sp.entitle.test/cb", "https://evil.example%2F.sp.entitle.test/cb", "https://sp.entitle.test%00.evil.example/cb",
        "https://sp.entitle.test\t.evil.example/cb", "https://sp.entitle.test\n/cb", "https://evil.example\u{3002}sp.entitle.test/cb",
        "https://sp.entitle.\u{FF54}est/cb", "https://xn--sp-entitle-test.evil.example/cb", "https:\\\\sp.entitle.test/cb",
        "https:///sp.entitle.test/cb", "https://sp.entitle.test/cb#fragment", "https://sub.sp.entitle.test/cb", "http://sp.entitle.test/cb",
    ]

    /// The trusted SP's redirect URI as a client may write it, and the form the provider redirects to.
    static let written = "HTTPS://SP.Entitle.TEST:443/sp/oauth2"
    static let normalized = "https://sp.entitle.test/sp/oauth2"

    static func authorizeURL(_ redirect: String, challenge: String?) -> String {
        var fields = [("response_type", "code"), ("client_id", "entitle-demo"), ("redirect_uri", redirect), ("state", "s1")]
        if let challenge { fields += [("code_challenge_method", "S256"), ("code_challenge", challenge)] }
        return "\(Fixture.baseURL)/DemoStream/oauth2/authorize?" + FormURLEncoding.encode(fields)
    }

    @Test("the authorization endpoint refuses hostile redirect URIs and redirects to the normalized one")
    func authorize() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            for redirect in Self.hostile {
                let answer = try await browser.get(Self.authorizeURL(redirect, challenge: nil))
                #expect(answer.status == .badRequest && answer.headers[.location] == nil, "\(redirect.debugDescription)")
            }
            // Without a PKCE challenge the browser goes straight back with an error: to the normalized URI.
            let refused = try await browser.get(Self.authorizeURL(Self.written, challenge: nil))
            #expect(refused.status == .found)
            #expect(refused.headers[.location] == Self.normalized + "?error=invalid_request&state=s1")
        }
    }

    @Test("a sign-in returns the code to the normalized redirect URI, which the token request may write either way")
    func signInAndToken() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let verifier = "verifier-0123456789-0123456789-0123456789-0123456789"
            let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString()
            let page = try await browser.get(Self.authorizeURL(Self.written, challenge: challenge))
            #expect(page.status == .ok)
            let sealed = try #require(inputValue("SAMLRequest", in: page.text))
            let signedIn = try await browser.postForm(
                "\(Fixture.baseURL)/DemoStream/oauth2/authorize", [("SAMLRequest", sealed), ("username", "erin"), ("password", "erin-pass")])
            #expect(signedIn.status == .found)
            let location = try #require(signedIn.headers[.location])
            #expect(location.hasPrefix(Self.normalized + "?code="))
            let code = try #require(queryItems(of: location)["code"])
            for (redirect, status) in [
                ("https://evil.example\\@sp.entitle.test/sp/oauth2", HTTPResponse.Status.badRequest), (Self.written, .ok), (Self.normalized, .ok),
            ] {
                let token = try await browser.postForm(
                    "\(Fixture.baseURL)/DemoStream/oauth2/token",
                    [
                        ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("code_verifier", verifier),
                        ("client_id", "entitle-demo"), ("client_secret", Fixture.apiKey),
                    ])
                #expect(token.status == status, "\(redirect.debugDescription): \(token.text)")
            }
        }
    }

    @Test("logout goes back only to the normalized post-logout redirect URI")
    func logout() async throws {
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            func logout(_ redirect: String) async throws -> TestResponse {
                try await browser.get(
                    "\(Fixture.baseURL)/DemoStream/oauth2/logout?"
                        + FormURLEncoding.encode([("post_logout_redirect_uri", redirect), ("state", "s2")]))
            }
            for redirect in Self.hostile {
                let answer = try await logout(redirect)
                #expect(answer.status == .ok && answer.headers[.location] == nil, "\(redirect.debugDescription)")
                #expect(answer.text.contains("You are signed out"), "\(redirect.debugDescription)")
            }
            let allowed = try await logout(Self.written)
            #expect(allowed.status == .found)
            #expect(allowed.headers[.location] == Self.normalized + "?state=s2")
        }
    }
}
