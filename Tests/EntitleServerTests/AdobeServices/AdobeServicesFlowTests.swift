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
import MediaTokenVerifier
import NIOCore
import Testing

/// The adobe-services protocol (protocol notes §4, DCR generation) over real sockets, as yt-dlp (web: `session`,
/// `authorize`, `shortAuthorize` with a reggie code) and the native SDKs (`sessionDevice`, `authorizeDevice`,
/// `deviceShortAuthorize` with `device_id`) speak it, with the DemoMVPD login played by the browser-like client.
@Suite struct AdobeServicesFlowTests {
    /// Posts a form to `/adobe-services/{name}` with the bearer token of `rest` (when given).
    static func post(_ host: LocalService, _ name: String, _ fields: [(String, String)], bearer: RESTClient?) async throws -> V1Answer {
        var request = HTTPClientRequest(url: host.baseURL + "/adobe-services/" + name)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded; charset=UTF-8")
        if let token = bearer?.accessToken { request.headers.add(name: "Authorization", value: "Bearer " + token) }
        request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(fields)))
        let response = try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        let body = try await response.body.collect(upTo: 1024 * 1024)
        return V1Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// The un-escaped text of an element, as clients read `<authnToken>` / `<authzToken>`.
    static func unescaped(_ answer: V1Answer, _ name: String) -> String? {
        answer.xml(name).map(XMLEscape.unescape)
    }

    @Test func webClientWithARegistrationCodeSignsInAuthorizesAndLogsOut() async throws {
        try await LocalService.run { host in
            // Individualization, DCR, reggie — as yt-dlp does since 2025.
            var indiv = HTTPClientRequest(url: host.baseURL + "/indiv/devices")
            indiv.method = .POST
            indiv.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
            indiv.body = .bytes(ByteBuffer(string: #"{"fingerprint":"0123456789abcdef0123456789abcdef"}"#))
            let indivAnswer = try await host.httpClient.execute(indiv, timeout: AnswerPatience.timeAmount)
            #expect(indivAnswer.headers.first(name: "pass_sfp") != nil)
            let indivBody = try await indivAnswer.body.collect(upTo: 4096)
            let deviceID = try #require((try JSONSerialization.jsonObject(with: Data(buffer: indivBody)) as? [String: Any])?["deviceId"] as? String)
            let rest = try await host.client(device: deviceID)
            let code = try await LegacyV1Client(host: host, identity: .bearer(rest), deviceID: deviceID).registrationCode()

            let config = try await host.httpClient.execute(
                HTTPClientRequest(url: host.baseURL + "/adobe-services/config/REF"), timeout: AnswerPatience.timeAmount)
            let configText = String(buffer: try await config.body.collect(upTo: 1024 * 1024))
            #expect(config.status.code == 200)
            #expect(configText.contains("<config>") && configText.contains("<id>DemoCable</id>"))

            let early = try await Self.post(host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", code)], bearer: rest)
            #expect(early.status == 401)
            #expect(early.text.contains("<error>"))

            let url =
                host.baseURL + "/adobe-services/authenticate/saml?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF"), ("no_iframe", "false"), ("domain_name", "adobe.com"),
                    ("redirect_url", "https://example.com/watch"), ("reg_code", code),
                ])
            guard
                case .page(let landed) = try await DemoSignIn.signIn(
                    browser: host.browser(), authenticationURL: url, username: "alice",
                    password: "alice-pass")
            else { Issue.record("no page"); return }
            #expect(landed.url == host.baseURL + "/authenticated?mvpd=DemoCable")

            let session = try await Self.post(host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", code)], bearer: rest)
            #expect(session.status == 200)
            let authn = try #require(Self.unescaped(session, "authnToken"))
            #expect(authn.hasPrefix("<signatureInfo>"))
            #expect(authn.contains("<simpleTokenMsoID>DemoCable</simpleTokenMsoID>"))
            #expect(authn.contains("<simpleTokenRequestorID>REF</simpleTokenRequestorID>"))
            let expires = try #require(authn.range(of: "<simpleTokenExpires>").map { String(authn[$0.upperBound...].prefix(29)) })
            #expect(expires.wholeMatch(of: /\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT \+0000/) != nil)
            let guid = try #require(authn.range(of: "<simpleTokenAuthenticationGuid>").map { String(authn[$0.upperBound...].prefix(32)) })
            let userMeta = try #require(Self.unescaped(session, "userMeta"))
            #expect(userMeta.contains("\"householdID\":\"H-1001\""))

            let decisions = ["entitle_decisions_total", "mvpd=\"DemoCable\"", "kind=\"authorize\"", "outcome=\"authorized\""]
            let before = try await host.counter(decisions[0], labels: Array(decisions.dropFirst()))
            let authorize = try await Self.post(
                host, "authorize",
                [
                    ("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", authn),
                    ("mso_id", "DemoCable"), ("userMeta", "1"),
                ], bearer: rest)
            #expect(authorize.status == 200)
            let authz = try #require(Self.unescaped(authorize, "authzToken"))
            #expect(authz.contains("<simpleTokenResourceID>news</simpleTokenResourceID>") && authz.contains("<simpleTokenTTL>"))
            #expect(authorize.xml("userMeta") != nil)

            let pem = try await rest.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))
            for _ in 0..<2 {
                let short = try await Self.post(
                    host, "shortAuthorize",
                    [
                        ("authz_token", authz), ("requestor_id", "REF"), ("session_guid", guid),
                        ("hashed_guid", "false"),
                    ], bearer: rest)
                #expect(short.status == 200)
                #expect(await verifier.verify(short.text, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            }
            #expect(try await host.counter(decisions[0], labels: Array(decisions.dropFirst())) - before == 1)

            let pre = try await Self.post(
                host, "preauthorize",
                [
                    ("authentication_token", authn), ("requestor_id", "REF"), ("resource_id", "news"),
                    ("resource_id", "sports"), ("noflash", "true"),
                ], bearer: rest)
            #expect(
                pre.text.contains(
                    "<resources><resource><id>news</id><authorized>true</authorized></resource><resource><id>sports</id><authorized>true</authorized></resource></resources>"
                ))
            let metadata = try await Self.post(host, "getMetadata", [("requestor_id", "REF"), ("device_id", deviceID)], bearer: rest)
            #expect(metadata.status == 200 && metadata.text.count == 64)
            // The user metadata of the token's sign-in (alice: household H-1001; zip encrypted for the programmer).
            let userMetadata = try await Self.post(host, "usermetadata", [("requestor", "REF"), ("authentication_token", authn)], bearer: rest)
            #expect(userMetadata.status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: userMetadata.body) as? [String: Any])
            let data = try #require(document["data"] as? [String: Any])
            #expect(data["householdID"] as? String == "H-1001")
            #expect((document["encrypted"] as? [String])?.contains("zip") == true)
            let forged = try await Self.post(
                host, "usermetadata",
                [("requestor", "REF"), ("authentication_token", "<simpleTokenAuthenticationGuid>nope</simpleTokenAuthenticationGuid>")],
                bearer: rest)
            #expect(forged.status == 400)

            // Logout in the hidden web view: the sign-in ends, the app's redirect URL is reached, old tokens get pendingLogout.
            let logout =
                host.baseURL + "/adobe-services/logout?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF"), ("authentication_token", authn),
                    ("redirect_url", "adobepass://ios.app"),
                ])
            guard case .external(let redirect) = try await host.browser().get(logout) else { Issue.record("logout did not redirect"); return }
            #expect(redirect == "adobepass://ios.app")
            let stale = try await Self.post(
                host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", authn)], bearer: rest)
            #expect(stale.text == "<pendingLogout reason=\"34764\">true</pendingLogout>")
            let staleShort = try await Self.post(host, "shortAuthorize", [("authz_token", authz), ("requestor_id", "REF")], bearer: rest)
            #expect(staleShort.text == "<pendingLogout reason=\"58772\">true</pendingLogout>")
            #expect(try await Self.post(host, "session", [("requestor_id", "REF"), ("reg_code", code)], bearer: rest).status == 401)
        }
    }

    @Test func nativeClientSharesTheRESTv2SignInAndGetsPendingLogout() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "apple-tv")
            _ = try await host.signIn(rest, user: "bob")
            let session = try await Self.post(
                host, "sessionDevice", [("_method", "GET"), ("requestor_id", "REF"), ("device_id", "apple-tv")], bearer: rest)
            #expect(session.status == 200)
            let authn = try #require(Self.unescaped(session, "authnToken"))
            let allowed = try await Self.post(
                host, "authorizeDevice",
                [
                    ("resource_id", "sports"), ("requestor_id", "REF"), ("mso_id", "DemoCable"),
                    ("authentication_token", authn), ("device_id", "apple-tv"),
                ], bearer: rest)
            let authz = try #require(Self.unescaped(allowed, "authzToken"))
            let short = try await Self.post(
                host, "deviceShortAuthorize", [("authz_token", authz), ("requestor_id", "REF"), ("device_id", "apple-tv")],
                bearer: rest)
            #expect(short.status == 200)
            #expect(Data(base64Encoded: short.text).map { String(decoding: $0, as: UTF8.self).hasPrefix("<signatureInfo>") } == true)

            let denied = try await Self.post(
                host, "authorizeDevice",
                [
                    ("resource_id", "movies"), ("requestor_id", "REF"), ("authentication_token", authn),
                    ("device_id", "apple-tv"),
                ], bearer: rest)
            #expect(denied.status == 403)
            #expect(denied.xml("code") == "authorization_denied_by_parental_controls")
            #expect(denied.xml("details")?.contains("TV-MA") == true)
            let otherDevice = try await Self.post(
                host, "authorizeDevice",
                [
                    ("resource_id", "sports"), ("requestor_id", "REF"),
                    ("authentication_token", authn), ("device_id", "stolen"),
                ], bearer: rest)
            #expect(otherDevice.text == "<pendingLogout reason=\"34764\">true</pendingLogout>")

            // Failures: no app identity (and no token to stand for it: AdobeServicesResumedRunTests), a token not issued
            // here, no resource, an unknown requestor.
            let anonymous = try await Self.post(
                host, "sessionDevice", [("requestor_id", "REF"), ("device_id", "apple-tv")], bearer: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.xml("code") == "missing_authentication_header")
            let forged = authn.replacingOccurrences(of: "<simpleTokenAuthenticationGuid>", with: "<simpleTokenAuthenticationGuid>0")
            let forgedAnswer = try await Self.post(
                host, "authorizeDevice", [("resource_id", "sports"), ("requestor_id", "REF"), ("authentication_token", forged)],
                bearer: rest)
            #expect(forgedAnswer.status == 400)
            #expect(forgedAnswer.xml("code") == "invalid_authentication_token")
            let garbage = try await Self.post(
                host, "authorizeDevice", [("resource_id", "sports"), ("requestor_id", "REF"), ("authentication_token", "%%%")],
                bearer: rest)
            #expect(garbage.status == 400)
            let noResource = try await Self.post(host, "authorizeDevice", [("requestor_id", "REF"), ("authentication_token", authn)], bearer: rest)
            #expect(noResource.status == 400)
            #expect(noResource.xml("code") == "missing_resource")
            let badShort = try await Self.post(host, "deviceShortAuthorize", [("authz_token", "nonsense"), ("requestor_id", "REF")], bearer: rest)
            #expect(badShort.status == 400)
            let unknownConfig = try await host.httpClient.execute(
                HTTPClientRequest(url: host.baseURL + "/adobe-services/config/NOPE"), timeout: AnswerPatience.timeAmount)
            #expect(unknownConfig.status.code == 400)
            var badIndiv = HTTPClientRequest(url: host.baseURL + "/indiv/devices")
            badIndiv.method = .POST
            badIndiv.body = .bytes(ByteBuffer(string: "{not json"))
            #expect(try await host.httpClient.execute(badIndiv, timeout: AnswerPatience.timeAmount).status.code == 400)

            // Signed out over REST v2: the SDK is told once to drop its tokens, then it is simply not signed in.
            #expect(try await rest.send(.GET, "/api/v2/REF/logout").status == 200)
            let pending = try await Self.post(host, "sessionDevice", [("requestor_id", "REF"), ("device_id", "apple-tv")], bearer: rest)
            #expect(pending.text == "<pendingLogout reason=\"34764\">true</pendingLogout>")
            #expect(try await Self.post(host, "sessionDevice", [("requestor_id", "REF"), ("device_id", "apple-tv")], bearer: rest).status == 401)
        }
    }

    @Test func anMVPDWithHTTPPOSTSingleSignOnGetsTheAutoPostingForm() async throws {
        try await LocalService.run { host in
            // DemoCable's metadata plus an HTTP-POST SingleSignOnService, imported as another MVPD.
            let metadataAnswer = try await host.httpClient.execute(
                HTTPClientRequest(url: host.baseURL + "/demo-mvpd/DemoCable/saml/metadata"),
                timeout: AnswerPatience.timeAmount)
            var metadata = String(buffer: try await metadataAnswer.body.collect(upTo: 1024 * 1024))
            let sso = try #require(metadata.range(of: "SingleSignOnService"))
            let open = try #require(metadata[..<sso.lowerBound].lastIndex(of: "<"))
            let prefix = String(metadata[metadata.index(after: open)..<sso.lowerBound])
            metadata.insert(
                contentsOf:
                    "<\(prefix)SingleSignOnService Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\" Location=\"https://idp.example/sso?x=1&amp;y=2\"/>",
                at: open)
            metadata = metadata.replacingOccurrences(of: "entityID=\"", with: "entityID=\"post-")
            try await host.service.mvpds.importSAML(
                id: "PostIdP", metadataXML: metadata,
                options: .init(displayName: "Post IdP", logoURL: "/logo.svg"), requestors: ["REF"])

            let rest = try await host.client(device: "web-1")
            let code = try await LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "web-1").registrationCode()
            let url =
                host.baseURL + "/adobe-services/authenticate/saml?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", "PostIdP"), ("requestor_id", "REF"), ("domain_name", "127.0.0.1"), ("reg_code", code),
                ])
            guard case .page(let page) = try await host.browser().get(url) else { Issue.record("no page"); return }
            #expect(page.status == 200)
            #expect(page.body.contains("document.forms[0].submit()"))
            let form = try #require(page.forms.first)
            #expect(form.method == "post")
            #expect(form.action == "https://idp.example/sso?x=1&y=2")
            #expect(form["RelayState"] == code)
            let request = try #require(form["SAMLRequest"].flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) })
            #expect(request.contains("Destination=\"https://idp.example/sso?x=1&amp;y=2\""))
            #expect(request.contains("<ds:SignatureValue>") && !request.contains("<ds:SignatureValue></ds:SignatureValue>"))
        }
    }

    /// Without `reg_code` the browser leg answers 451, as Adobe does since it requires one; an unknown code stays 400.
    /// The logout page the SDK opens after an API logout of an MVPD without Single Logout (no token, no request id)
    /// sends the browser back only to a redirect URI of the requestor's apps or a URL on its domains.
    @Test func theLogoutPageWithoutATokenRedirectsOnlyToTheRequestorsOwnURLs() async throws {
        try await LocalService.run { host in
            func page(_ redirect: String, requestor: String = "REF") -> String {
                host.baseURL + "/adobe-services/logout?"
                    + FormURLEncoding.encode([("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", requestor), ("redirect_url", redirect)])
            }
            guard case .external(let back) = try await host.browser().get(page("adobepass://ios.app")) else {
                Issue.record("the registered redirect URI was not followed")
                return
            }
            #expect(back == "adobepass://ios.app")
            for (redirect, requestor) in [
                ("https://evil.example/phish", "REF"), ("adobepass://ios.app.evil", "REF"), ("adobepass://ios.app", "NOPE"),
            ] {
                guard case .page(let shown) = try await host.browser().get(page(redirect, requestor: requestor)) else {
                    Issue.record("\(redirect) for \(requestor) was followed")
                    continue
                }
                #expect(shown.status == 200 && shown.body.contains("You are signed out"))
            }
        }
    }

    @Test func theBrowserLegWithoutARegistrationCodeIs451() async throws {
        try await RouterService.run { host in
            let base = host.baseURL + "/adobe-services/authenticate/saml?"
            guard
                case .page(let missing) = try await host.browser().get(
                    base + FormURLEncoding.encode([("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF")]))
            else { Issue.record("no page"); return }
            #expect(missing.status == 451)
            #expect(missing.body.contains("registration code is required"))
            guard
                case .page(let unknown) = try await host.browser().get(
                    base + FormURLEncoding.encode([("mso_id", "DemoCable"), ("requestor_id", "REF"), ("reg_code", "ZZZZ2345")]))
            else { Issue.record("no page"); return }
            #expect(unknown.status == 400)
        }
    }
}
