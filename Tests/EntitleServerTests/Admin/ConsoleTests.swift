import AsyncHTTPClient
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The console's security and failures over a real socket (the browser tests cover its pages in Chromium): sign-in
/// with its anti-forgery cookie, cookie flags, the Content-Security-Policy, CSRF and role checked on the server for
/// every change, idle expiry, throttling, the static files, and a clear page or message for every bad input.
@Suite struct ConsoleTests {
    static let password = "correct horse battery"

    struct Page {
        var status: Int
        var headers: HTTPHeaders
        var text: String
        var cookies: [String: String] {
            var cookies: [String: String] = [:]
            for header in headers["Set-Cookie"] {
                let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
            }
            return cookies
        }
        /// The outcome message a change left for the next page (its short-lived cookie, decoded); "" when none.
        var flash: String {
            cookies[ConsoleFlash.cookieName].flatMap { Data(base64URLEncoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        /// The value of the first hidden field `name` on the page.
        func field(_ name: String) -> String? {
            guard let range = text.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(text[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func call(
        _ local: LocalService, _ method: HTTPMethod, _ path: String, form: [String: String]? = nil, cookie: String? = nil, raw: String? = nil
    )
        async throws -> Page
    {
        var request = HTTPClientRequest(url: local.baseURL + path)
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form.map { "\($0.key)=\(FormURLEncodingTest.escape($0.value))" }.joined(separator: "&")))
        } else if let raw {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: raw))
        }
        // Generous, as the admin API tests': the full suite runs a hundred services at once on two cores.
        let response = try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        let body = try await response.body.collect(upTo: 4 << 20)
        return Page(status: Int(response.status.code), headers: response.headers, text: String(buffer: body))
    }

    /// Signs `username` in through the sign-in form; returns the session cookie and the CSRF token of its pages.
    static func signIn(_ local: LocalService, _ username: String, role: OperatorRole) async throws -> (cookie: String, csrf: String) {
        _ = try await local.service.operators.add(username: username, role: role, password: password)
        let form = try await call(local, .GET, "/console/sign-in")
        let login = try #require(form.cookies[ConsoleSignInController.loginCookieName])
        let answer = try await call(
            local, .POST, "/console/sign-in", form: ["login": try #require(form.field("login")), "username": username, "password": password],
            cookie: "\(ConsoleSignInController.loginCookieName)=\(login)")
        #expect(answer.status == 303 && answer.headers["Location"].first == "/console/requestors", "\(answer.status) \(answer.text)")
        let cookie = "entitle_admin=" + (try #require(answer.cookies["entitle_admin"]))
        let page = try await call(local, .GET, "/console/requestors", cookie: cookie)
        return (cookie, try #require(page.field("csrf")))
    }

    @Test func signInNeedsItsOwnFormAndSetsAStrictHttpOnlyCookie() async throws {
        try await LocalService.run { local in
            let unauthenticated = try await Self.call(local, .GET, "/console/requestors")
            #expect(unauthenticated.status == 303 && unauthenticated.headers["Location"].first == "/console/sign-in")
            let form = try await Self.call(local, .GET, "/console/sign-in")
            let policy = form.headers["Content-Security-Policy"].first ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-inline"))
            #expect(form.headers["Cache-Control"].first == "no-store")

            // A sign-in posted without the form's cookie (another site's form) is refused, whatever the password.
            _ = try await local.service.operators.add(username: "ops", role: .readWrite, password: Self.password)
            let forged = try await Self.call(local, .POST, "/console/sign-in", form: ["login": "x", "username": "ops", "password": Self.password])
            #expect(forged.status == 403 && forged.cookies["entitle_admin"] == nil)

            let (cookie, csrf) = try await Self.signIn(local, "ops2", role: .readWrite)
            #expect(!csrf.isEmpty && cookie.count > 20)
            let login = try await Self.call(local, .GET, "/console/sign-in")
            let answer = try await Self.call(
                local, .POST, "/console/sign-in", form: ["login": login.field("login") ?? "", "username": "ops", "password": Self.password],
                cookie: "\(ConsoleSignInController.loginCookieName)=\(login.cookies[ConsoleSignInController.loginCookieName] ?? "")")
            let setCookie = answer.headers["Set-Cookie"].first { $0.hasPrefix("entitle_admin=") } ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), "\(setCookie)")
            #expect(!setCookie.contains("Secure"), "plain HTTP on loopback: no Secure flag")
        }
    }

    @Test func everyChangeChecksTheCSRFTokenTheRoleAndAskWhy() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            let path = "/console/requestors/REF/integrations/DemoCable"
            let noToken = try await Self.call(local, .POST, path, form: ["description": "x", "enabled": "false"], cookie: cookie)
            #expect(noToken.status == 403 && noToken.text.contains("security token"))
            let noWhy = try await Self.call(local, .POST, path, form: ["csrf": csrf, "enabled": "false"], cookie: cookie)
            #expect(noWhy.status == 303)
            let message = try await Self.call(
                local, .GET, "/console/requestors/REF", cookie: cookie + "; " + (noWhy.headers["Set-Cookie"].first ?? ""))
            #expect(message.text.contains("Say why the change is made"))
            #expect(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first?.enabled == true, "nothing changed")

            let (viewer, viewerCSRF) = try await Self.signIn(local, "viewer", role: .readOnly)
            let refused = try await Self.call(local, .POST, path, form: ["csrf": viewerCSRF, "description": "x", "enabled": "false"], cookie: viewer)
            #expect(refused.status == 403 && refused.text.contains("read-only"))
            #expect(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first?.enabled == true, "nothing changed")

            let done = try await Self.call(
                local, .POST, path, form: ["csrf": csrf, "description": "outage drill", "enabled": "false"], cookie: cookie)
            #expect(done.status == 303)
            let entry = try await local.service.repository.changeLogStore.changes(since: 0).last
            #expect(entry?.action == "integration.disable" && entry?.description == "outage drill" && entry?.actor == "operator:ops")
        }
    }

    /// A sign-in or sign-out posted as multipart without a boundary (schemathesis sent one) gets the form again with
    /// a 400 saying why, never a 500.
    @Test func aMultipartFormWithoutBoundaryIsABadRequest() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            for (path, sendCookie) in [("/console/sign-in", false), ("/console/sign-out", true)] {
                var request = HTTPClientRequest(url: local.baseURL + path)
                request.method = .POST
                if sendCookie { request.headers.add(name: "Cookie", value: cookie) }
                request.headers.add(name: "Content-Type", value: "multipart/form-data")
                request.body = .bytes(ByteBuffer(string: "login=x&username=&password=&csrf=\(csrf)"))
                let response = try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                #expect(response.status == .badRequest, "\(path): \(response.status)")
                #expect(text.contains("multipart boundary"), "\(path): \(text)")
            }
        }
    }

    @Test func badInputsGetAClearPageOrMessageAndChangeNothing() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            let unknown = try await Self.call(local, .GET, "/console/requestors/NOPE", cookie: cookie)
            #expect(unknown.status == 404 && unknown.text.contains("NOPE"))
            #expect(try await Self.call(local, .GET, "/console/mvpds/NOPE", cookie: cookie).status == 404)
            #expect(try await Self.call(local, .GET, "/console/statements/nope/download", cookie: cookie).status == 404)
            #expect(try await Self.call(local, .GET, "/console/changes?since=yesterday", cookie: cookie).status == 400)
            let before = try await local.service.repository.changeLogStore.changes(since: 0).count
            let cases: [(String, [String: String], String)] = [
                ("/console/requestors/REF/degradation", ["mvpd": "DemoCable", "rule": "authz-all", "minutes": "0"], "1 to 10080 minutes"),
                ("/console/requestors/REF/degradation", ["mvpd": "DemoCable", "rule": "everything", "minutes": "5"], "Unknown rule"),
                ("/console/requestors/REF/degradation/remove", ["mvpd": "DemoCable", "rule": "authz-all"], "no degradation rule"),
                ("/console/requestors/NOPE/statements", ["name": "App"], "no requestor NOPE"),
                ("/console/clients/nope/revoke?requestor=REF", [:], "no client nope"),
                ("/console/mvpds", ["id": "X1", "name": "X"], "Upload the MVPD's IdP metadata or give its URL"),
                ("/console/mvpds", ["id": "X1", "name": "X", "metadataFile": "<not metadata/>"], "cannot be used"),
                ("/console/mvpds", ["id": "DemoCable", "name": "X", "metadataFile": "<x/>"], "exists already"),
                ("/console/mvpds/DemoCable", ["profileTTLSeconds": "5"], "at least 60 seconds"),
                ("/console/keys/media-token/rotate", ["promoteAfter": "10", "confirm": "on"], "at least 300 s"),
                ("/console/keys/media-token/rotate", ["promoteAfter": "900"], "Confirm that you have read"),
                ("/console/keys/nonsense/rotate", ["promoteAfter": "900", "confirm": "on"], "unknown key purpose"),
            ]
            for (path, fields, expected) in cases {
                var form = fields
                (form["csrf"], form["description"]) = (csrf, "test")
                let answer = try await Self.call(local, .POST, path, form: form, cookie: cookie)
                #expect(answer.status == 303, "\(path): \(answer.status)")
                let text = answer.flash
                #expect(text.hasPrefix("e") && text.contains(expected), "\(path): \(text)")
            }
            #expect(try await local.service.repository.changeLogStore.changes(since: 0).count == before, "no refused change is logged")
            let oversized = try await Self.call(
                local, .POST, "/console/mvpds", cookie: cookie,
                raw: "csrf=\(csrf)&description=x&metadataFile=" + String(repeating: "a", count: 1_100_000))
            #expect(oversized.status == 413)
        }
    }

    /// The console's OAuth 2.0 add form: an MVPD added from its endpoints, integrated and logged with why; the secret
    /// never shown; every bad input a message that changes nothing; a read-only operator refused.
    @Test func anOAuth2MVPDIsAddedFromItsEndpoints() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            let page = try await Self.call(local, .GET, "/console/mvpds", cookie: cookie)
            #expect(page.text.contains("id=\"add-oauth2-mvpd\"") && page.text.contains(local.service.oauth2MVPDs.redirectURI))
            let endpoints = [
                "id": "Oauthy", "name": "Oauthy TV", "authorizeURL": "https://login.oauthy.example/authorize",
                "tokenURL": "https://login.oauthy.example/token", "userinfoURL": "https://login.oauthy.example/userinfo",
                "clientID": "entitle", "clientSecret": "s3cret-never-shown", "scopes": "openid profile", "requestors": "REF",
                "authorizationProtocol": "none",
            ]
            let before = try await local.service.repository.changeLogStore.changes(since: 0).count
            let cases: [([String: String], String)] = [
                (endpoints.merging(["clientSecret": ""]) { $1 }, "clientSecret is required"),
                (endpoints.merging(["issuer": "https://login.oauthy.example"]) { $1 }, "not both"),
                (endpoints.merging(["tokenURL": ""]) { $1 }, "needs oauth2.issuer"),
                (endpoints.merging(["authorizeURL": "http://login.oauthy.example/authorize"]) { $1 }, "https"),
                (endpoints.merging(["requestors": "NOPE"]) { $1 }, "NOPE"),
                (endpoints.merging(["id": "DemoCable"]) { $1 }, "exists already"),
                (endpoints.merging(["authorizationProtocol": "carrier-pigeon"]) { $1 }, "Unknown authorization protocol"),
            ]
            for (fields, expected) in cases {
                var form = fields
                (form["csrf"], form["description"]) = (csrf, "test")
                let answer = try await Self.call(local, .POST, "/console/oauth2-mvpds", form: form, cookie: cookie)
                #expect(answer.status == 303, "\(expected): \(answer.status)")
                let text = answer.flash
                #expect(text.hasPrefix("e") && text.contains(expected), "\(expected): \(text)")
            }
            #expect(try await local.service.repository.changeLogStore.changes(since: 0).count == before, "no refused change is logged")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "Oauthy") == nil)

            let (viewer, viewerCSRF) = try await Self.signIn(local, "viewer", role: .readOnly)
            let refused = try await Self.call(
                local, .POST, "/console/oauth2-mvpds", form: endpoints.merging(["csrf": viewerCSRF, "description": "x"]) { $1 }, cookie: viewer)
            #expect(refused.status == 403)
            let viewerPage = try await Self.call(local, .GET, "/console/mvpds", cookie: viewer)
            #expect(!viewerPage.text.contains("add-oauth2-mvpd"), "no change form for a read-only operator")

            let done = try await Self.call(
                local, .POST, "/console/oauth2-mvpds", form: endpoints.merging(["csrf": csrf, "description": "new partner"]) { $1 }, cookie: cookie)
            #expect(done.status == 303)
            let view = try await local.service.mvpds.view(id: "Oauthy")
            #expect(view.kind == "oauth2" && view.oauth2?.tokenURL == "https://login.oauthy.example/token")
            #expect(view.oauth2?.scopes == ["openid", "profile"])
            #expect(try await local.service.integrations.views(requestor: "REF", mvpd: "Oauthy").first?.enabled == true)
            let entry = try #require(try await local.service.repository.changeLogStore.changes(since: 0).last)
            #expect(entry.action == "mvpd.add" && entry.description == "new partner" && entry.actor == "operator:ops")
            #expect(!(entry.valueAfter ?? "").contains("s3cret-never-shown"), "the secret is never logged")
            let shown = try await Self.call(local, .GET, "/console/mvpds/Oauthy", cookie: cookie)
            #expect(shown.status == 200 && !shown.text.contains("s3cret-never-shown"))
            // Preflight by lineup needs a SAML assertion: an OAuth 2.0 MVPD is not offered it, and its integration
            // (which has no lineup) is not shown as preflighting by lineup.
            #expect(!shown.text.contains("<option value=\"lineup\"") && !shown.text.contains("by channel lineup"), "\(shown.text)")
            #expect(!shown.text.contains("entity id <code></code>"), "an OAuth 2.0 MVPD has no entity id to show")
        }
    }

    @Test func theAddFormsDefaultToTheCLIsAuthorizationProtocol() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            let page = try await Self.call(local, .GET, "/console/mvpds", cookie: cookie)
            for form in ["mvpd-protocol", "oauth2-protocol"] {
                let select = try #require(page.text.range(of: "id=\"\(form)\"").map { String(page.text[$0.lowerBound...].prefix(400)) })
                #expect(select.contains("<option value=\"entitle-json\" selected>"), "\(select)")
                #expect(!select.contains("<option value=\"none\" selected"), "\(select)")
            }
            // A form that omits the protocol gets the CLI's default, never "authorize every signed-in subscriber".
            let added = try await Self.call(
                local, .POST, "/console/oauth2-mvpds",
                form: [
                    "id": "Defaulted", "name": "Defaulted TV", "authorizeURL": "https://login.defaulted.example/authorize",
                    "tokenURL": "https://login.defaulted.example/token", "userinfoURL": "https://login.defaulted.example/userinfo",
                    "clientID": "entitle", "clientSecret": "secret", "authorizationURL": "https://login.defaulted.example/authz",
                    "csrf": csrf, "description": "default protocol",
                ], cookie: cookie)
            #expect(added.status == 303 && !added.flash.hasPrefix("e"), "\(added.flash)")
            #expect(try await local.service.mvpds.view(id: "Defaulted").authorizationProtocol == "entitle-json")
            // The SAML MVPD's page offers lineup; its integrations without a lineup say they ask the MVPD.
            let saml = try await Self.call(local, .GET, "/console/mvpds/DemoCable", cookie: cookie)
            #expect(saml.text.contains("<option value=\"mvpd\" selected>") && saml.text.contains("<option value=\"lineup\">"))
            #expect(saml.text.contains("REF: asks the MVPD"), "\(saml.text)")
        }
    }

    @Test func sessionsEndWhenIdleAndSignInIsThrottled() async throws {
        try await LocalService.run { local in
            let (cookie, _) = try await Self.signIn(local, "ops", role: .readOnly)
            local.clock.advance(by: 31 * 60)
            let expired = try await Self.call(local, .GET, "/console/requestors", cookie: cookie)
            #expect(expired.status == 303 && expired.headers["Location"].first == "/console/sign-in", "idle for 31 minutes")
            let form = try await Self.call(local, .GET, "/console/sign-in")
            let loginCookie = "\(ConsoleSignInController.loginCookieName)=\(form.cookies[ConsoleSignInController.loginCookieName] ?? "")"
            for _ in 0..<5 {
                let wrong = try await Self.call(
                    local, .POST, "/console/sign-in", form: ["login": form.field("login") ?? "", "username": "ops", "password": "wrong!"],
                    cookie: loginCookie)
                #expect(wrong.status == 401 && wrong.text.contains("role=\"alert\""))
            }
            let throttled = try await Self.call(
                local, .POST, "/console/sign-in", form: ["login": form.field("login") ?? "", "username": "ops", "password": Self.password],
                cookie: loginCookie)
            #expect(throttled.status == 429 && throttled.headers["Retry-After"].first != nil)

            // The operators page shows the failures; a read-write operator unlocks the account, which signs in again.
            let (admin, csrf) = try await Self.signIn(local, "lead", role: .readWrite)
            let page = try await Self.call(local, .GET, "/console/operators", cookie: admin)
            #expect(page.status == 200 && page.text.contains("/console/operators/ops/unlock"), "\(page.text)")
            let unlocked = try await Self.call(
                local, .POST, "/console/operators/ops/unlock", form: ["csrf": csrf, "description": "ops locked out by a typo"], cookie: admin)
            #expect(unlocked.status == 303, "\(unlocked.text)")
            let again = try await Self.call(
                local, .POST, "/console/sign-in", form: ["login": form.field("login") ?? "", "username": "ops", "password": Self.password],
                cookie: loginCookie)
            #expect(again.status == 303, "\(again.status) \(again.text)")
            let changes = try await local.service.changes.recorded(since: 0)
            #expect(changes.contains { $0.action == "operator.unlock" && $0.target == "ops" && $0.actor == "operator:lead" })
        }
    }

    @Test func staticFilesAreServedWithTheirTypesAndChartJSKeepsItsLicense() async throws {
        try await LocalService.run { local in
            let chart = try await Self.call(local, .GET, "/console/assets/chart.min.js")
            #expect(chart.status == 200 && chart.headers["Content-Type"].first?.hasPrefix("text/javascript") == true)
            #expect(chart.text.contains("Chart.js v3.9.1") && chart.text.contains("MIT License"))
            let license = try await Self.call(local, .GET, "/console/assets/chart.js-LICENSE")
            #expect(license.status == 200 && license.text.contains("Permission is hereby granted"))
            #expect(try await Self.call(local, .GET, "/console/assets/console.css").headers["Content-Type"].first?.hasPrefix("text/css") == true)
            #expect(try await Self.call(local, .GET, "/console/assets/reports.js").status == 200)
            #expect(try await Self.call(local, .GET, "/console/assets/..%2Fopenapi.json").status == 404)
            #expect(try await Self.call(local, .GET, "/console/assets/secret.txt").status == 404)
        }
    }

    /// The token-encryption key rotated from the console re-encrypts the stored secrets, as `keys rotate` does.
    @Test func rotatingTheTokenEncryptionKeyReEncryptsWhatItProtects() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await Self.signIn(local, "ops", role: .readWrite)
            let answer = try await Self.call(
                local, .POST, "/console/keys/token-encryption/rotate",
                form: ["csrf": csrf, "description": "yearly", "promoteAfter": "0", "confirm": "on"], cookie: cookie)
            #expect(answer.status == 303)
            let entry = try await local.service.repository.changeLogStore.changes(since: 0).last
            #expect(entry?.action == "keys.rotate" && entry?.target == "token-encryption" && entry?.valueAfter?.contains("refreshTokens") == true)
            let keys = try await Self.call(local, .GET, "/console/keys", cookie: cookie)
            #expect(keys.text.contains("re-encrypted"), "the page says what the rotation affects")
        }
    }

    @Test func theAdminAPIRecordsWhyFromItsHeader() async throws {
        try await LocalService.run { local in
            _ = try await local.service.operators.add(username: "bot", role: .readWrite, password: Self.password)
            let (token, _) = try await local.service.operators.signIn(username: "bot", password: Self.password, address: nil)
            var request = HTTPClientRequest(url: local.baseURL + "/admin/api/integrations/REF/DemoCable")
            request.method = .PUT
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "X-Change-Description", value: "ticket OPS-12")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"enabled":false}"#))
            #expect(try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount).status == .ok)
            #expect(try await local.service.repository.changeLogStore.changes(since: 0).last?.description == "ticket OPS-12")
            request.headers.replaceOrAdd(name: "X-Change-Description", value: String(repeating: "x", count: 501))
            #expect(try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount).status == .badRequest)
        }
    }
}

/// Percent-encoding of form values for the tests' requests.
enum FormURLEncodingTest {
    static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
