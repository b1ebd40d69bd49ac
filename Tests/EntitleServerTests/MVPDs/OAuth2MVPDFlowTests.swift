import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import NIOCore
import Testing

/// OAuth 2.0 MVPDs against an OAuth 2.0 / OpenID provider this project did not write (Authlib on Flask, in a venv,
/// on loopback): discovery, the authorization-code grant with PKCE S256 through the real service's browser leg over
/// REST v2, the userinfo profile, the refresh token kept encrypted server-side and exchanged for the access token the
/// MVPD's REST authorization API takes, logout at the MVPD; then every failure as a named Enhanced Error Code.
@Suite(.enabled(if: OAuth2Provider.available, "python3 with venv is not installed: the OAuth 2.0 provider cannot run"))
struct OAuth2MVPDFlowTests {
    static let mvpd = "StreamTV"

    /// The service with the provider configured as MVPD `StreamTV` by OIDC discovery (REST authorization at the
    /// provider's `/authz`, on the user's behalf).
    func withStreamTV(_ body: (LocalService, OAuth2Provider) async throws -> Void) async throws {
        try await LocalService.run { host in
            try await OAuth2Provider.run(
                redirectURI: host.service.oauth2MVPDs.redirectURI, logoutRedirectURI: host.service.oauth2MVPDs.logoutRedirectURI
            ) { provider in
                var settings = try await host.service.oauth2MVPDs.discover(
                    issuer: provider.baseURL, clientID: provider.clientID, clientSecret: provider.clientSecret)
                settings.scopes = ["openid", "profile"]
                var options = MVPDOptions(displayName: "Stream TV", logoURL: "", authorizationURL: provider.baseURL + "/authz")
                options.authorizationProtocol = .rest
                try await host.service.oauth2MVPDs.save(id: Self.mvpd, options: options, oauth2: settings, requestors: ["REF"])
                try await body(host, provider)
            }
        }
    }

    /// Creates a session and opens its authentication URL: the provider's login page.
    func openLogin(_ host: LocalService, _ tv: RESTClient, redirectURL: String = "adobepass://ios.app") async throws -> (
        BrowserClient, BrowserClient.Page, String
    ) {
        let session = try await tv.createSession(mvpd: Self.mvpd, redirectURL: redirectURL).decode(SessionResponse.self)
        let browser = host.browser()
        guard case .page(let login) = try await browser.get(host.baseURL + (session.url ?? "")) else {
            throw ProviderError("no login page")
        }
        return (browser, login, try #require(session.code))
    }

    /// Signs `user` in at the provider through the browser leg; returns where the browser ended.
    func signIn(_ host: LocalService, _ tv: RESTClient, user: String = "sam") async throws -> BrowserClient.Outcome {
        let (browser, login, _) = try await openLogin(host, tv)
        var form = try #require(login.forms.first, "the provider's login page has a form: \(login.body)")
        form.set("username", user)
        form.set("password", user + "-pass")
        return try await browser.submit(form, from: login)
    }

    /// The callback URL the provider sends the browser to, caught without following it.
    func callbackURL(_ host: LocalService, login: BrowserClient.Page, user: String = "sam") async throws -> String {
        var form = try #require(login.forms.first)
        form.set("username", user)
        form.set("password", user + "-pass")
        let action = URL(string: form.action, relativeTo: URL(string: login.url))!.absoluteString
        var request = HTTPClientRequest(url: action)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(form.fields)))
        let response = try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        return try #require(response.headers.first(name: "Location"))
    }

    @Test func aDeviceSignsInOverRESTv2AndGetsAMediaToken() async throws {
        try await withStreamTV { host, provider in
            var tv = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "device-" + UUID().uuidString)
            let clientID = try await tv.registerAndAuthorize(softwareStatement: host.softwareStatement).clientID
            guard case .external(let redirect) = try await signIn(host, tv) else { throw ProviderError("the sign-in did not return to the app") }
            #expect(redirect == "adobepass://ios.app")

            let profiles = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles
            let profile = try #require(profiles[Self.mvpd])
            #expect(profile.attributes["userID"]?.value == .string("stream-user-sam"))
            #expect(profile.attributes["householdID"]?.value == .string("HH-900"))  // household_id, a common name
            #expect(profile.attributes["zip"]?.value == .string("02134"))  // postalCode
            #expect(profile.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y")]))
            #expect(profile.attributes["channels"]?.value == .array([.string("news"), .string("sports")]))

            // The MVPD's REST authorization API takes the user's access token: the refresh token was exchanged for it.
            let allowed = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["news"]).decode(DecisionsResponse.self).decisions
            #expect(allowed.first?.authorized == true && allowed.first?.token != nil, "\(allowed)")
            let denied = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["movies"]).decode(DecisionsResponse.self).decisions
            #expect(denied.first?.authorized == false)
            #expect(denied.first?.error?.code == "authorization_denied_by_mvpd")
            #expect(try await provider.counts(httpClient: host.httpClient)["refresh"] ?? 0 >= 2)

            // The refresh token is kept server-side, encrypted, and never sent to the client.
            let issued = try await provider.refreshTokens(httpClient: host.httpClient)
            #expect(issued.count == 1)
            let grant = try #require(
                try await host.service.repository.oauth2Store.oauth2Grant(requestor: "REF", client: clientID, device: tv.deviceID, mvpd: Self.mvpd))
            #expect(grant.refreshToken.hasPrefix("v1.") && !grant.refreshToken.contains(issued[0]))
            let answers = try await tv.send(.GET, "/api/v2/REF/profiles").text + (try await tv.send(.GET, "/api/v2/REF/profiles/\(Self.mvpd)").text)
            #expect(!answers.contains(issued[0]))

            // Logout: the grant is gone, and the browser goes through the MVPD's logout endpoint back to the app.
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/\(Self.mvpd)?redirectUrl=adobepass%3A%2F%2Fios.app")
                .decode(LogoutsResponse.self).logouts[Self.mvpd]
            #expect(logout?.actionName == .logout)
            let url = try #require(logout?.url)
            guard case .external(let back) = try await host.browser().get(url) else { throw ProviderError("the logout did not return to the app") }
            #expect(back == "adobepass://ios.app")
            #expect(
                try await host.service.repository.oauth2Store.oauth2Grant(requestor: "REF", client: clientID, device: tv.deviceID, mvpd: Self.mvpd)
                    == nil)
            let after = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["news"])
            #expect(after.status == 403 || (try? after.decode(DecisionsResponse.self).decisions.first?.authorized) == false)
        }
    }

    @Test func aStateThatDoesNotMatchIsRefusedAndACallbackIsUsedOnce() async throws {
        try await withStreamTV { host, provider in
            for query in ["code=abc&state=forged", "code=abc", "state=", "error=access_denied&state=forged"] {
                let page = try await host.browser().get(host.baseURL + "/adobe-services/oauth2?" + query)
                guard case .page(let refused) = page else { throw ProviderError("no page for \(query)") }
                #expect(refused.status == 400, "\(query)")
                #expect(refused.body.contains("invalid_authentication_session"), "\(query): \(refused.body)")
            }
            let tv = try await host.client()
            let (browser, login, code) = try await openLogin(host, tv)
            let callback = try await callbackURL(host, login: login)
            #expect(callback.hasPrefix(host.service.oauth2MVPDs.redirectURI + "?"))
            // A state that is not the one sent (the same code): refused, and the session is not completed by it.
            let tampered = callback.replacingOccurrences(of: "state=", with: "state=x")
            guard case .page(let refused) = try await browser.get(tampered) else { throw ProviderError("no page") }
            #expect(refused.status == 400)
            guard case .external = try await browser.get(callback) else { throw ProviderError("the genuine callback was refused") }
            guard case .page(let replay) = try await browser.get(callback) else { throw ProviderError("no page") }
            #expect(replay.status == 400 && replay.body.contains("invalid_authentication_session"))
            let profile = try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)")
            #expect(profile.status == 200, "\(profile.text)")
        }
    }

    @Test func tokenEndpointFailuresAreNamedErrorsNeverServerErrors() async throws {
        try await withStreamTV { host, provider in
            for (mode, code, status) in [
                ("fail", "network_received_error", 502), ("malformed", "network_received_error", 502),
                ("slow", "network_connection_timeout", 504),
            ] {
                try await provider.setTokenEndpoint("normal", httpClient: host.httpClient)
                let tv = try await host.client()
                let (browser, login, sessionCode) = try await openLogin(host, tv)
                let callback = try await callbackURL(host, login: login)
                try await provider.setTokenEndpoint(mode, httpClient: host.httpClient)
                guard case .page(let page) = try await browser.get(callback) else { throw ProviderError("no page for \(mode)") }
                #expect(page.status == status, "\(mode)")
                #expect(page.body.contains(code) && page.body.contains("Stream TV"), "\(mode): \(page.body)")
                let answer = try await tv.send(.GET, "/api/v2/REF/profiles/code/\(sessionCode)")
                #expect(answer.status == 403 && answer.text.contains("Stream TV"), "\(mode): \(answer.text)")
            }

            // The refresh before an authorization call fails the same way: a decision error naming the MVPD, not a 500.
            try await provider.setTokenEndpoint("normal", httpClient: host.httpClient)
            let tv = try await host.client()
            _ = try await signIn(host, tv)
            try await provider.setTokenEndpoint("malformed", httpClient: host.httpClient)
            let answer = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["news"])
            #expect(answer.status != 500)
            let decision = try answer.decode(DecisionsResponse.self).decisions.first
            #expect(decision?.authorized == false)
            #expect(decision?.error?.code == "network_received_error")
            #expect(decision?.error?.details?.contains("Stream TV") == true, "\(String(describing: decision))")
        }
    }

    @Test func aRevokedRefreshTokenEndsTheSignIn() async throws {
        try await withStreamTV { host, provider in
            let tv = try await host.client()
            _ = try await signIn(host, tv)
            try await provider.revokeGrants(of: "sam", httpClient: host.httpClient)
            let decision = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["sports"]).decode(DecisionsResponse.self)
                .decisions.first
            #expect(decision?.authorized == false)
            #expect(decision?.error?.code == "authenticated_profile_invalidated")
            #expect(decision?.error?.details?.contains("Stream TV") == true)
            let profiles = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles
            #expect(profiles[Self.mvpd] == nil)
            // The MVPD ended the sign-in: the device's next decision is told so, not that it never signed in.
            let next = try await tv.decisions("authorize", mvpd: Self.mvpd, resources: ["sports"])
            #expect(next.status == 403, "\(next.text)")
            #expect((try? next.decode(EnhancedError.self))?.code == .authorizationDeniedBySessionInvalidated, "\(next.text)")
        }
    }

    @Test func cancellingAtTheProviderGoesBackToTheApp() async throws {
        try await withStreamTV { host, _ in
            let tv = try await host.client()
            let (browser, login, _) = try await openLogin(host, tv)
            var form = try #require(login.forms.first)
            form.fields.append(("deny", "1"))
            guard case .external(let back) = try await browser.submit(form, from: login) else { throw ProviderError("no return to the app") }
            #expect(back == "adobepass://ios.app?error=authentication_failed")
        }
    }

    @Test func discoveryAndEndpointsAreChecked() async throws {
        try await withStreamTV { host, provider in
            await #expect(throws: ConfigurationError.self) {
                _ = try await host.service.oauth2MVPDs.discover(issuer: provider.baseURL + "/nothing", clientID: "c", clientSecret: "s")
            }
            await #expect(throws: ConfigurationError.self) {
                _ = try await host.service.oauth2MVPDs.discover(issuer: "ftp://example.com", clientID: "c", clientSecret: "s")
            }
            let plain = OAuth2MVPDSettings(
                authorizeURL: "http://mvpd.example.com/authorize", tokenURL: provider.baseURL + "/token",
                userinfoURL: provider.baseURL + "/userinfo", clientID: "c", clientSecret: "s")
            await #expect(throws: ConfigurationError.self) {
                try await host.service.oauth2MVPDs.save(
                    id: "Plain", options: .init(displayName: "Plain", logoURL: ""), oauth2: plain, requestors: ["REF"])
            }
        }
    }
}
