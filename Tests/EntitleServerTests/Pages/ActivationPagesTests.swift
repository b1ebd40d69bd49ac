import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The second-screen activation pages, driven like a person with a browser.
@Suite struct ActivationPagesTests {
    func page(_ outcome: BrowserClient.Outcome) throws -> BrowserClient.Page {
        guard case .page(let page) = outcome else { throw BrowserError("expected a page, got \(outcome)") }
        return page
    }

    func newCode(_ tv: RESTClient) async throws -> String {
        try #require(try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self).code)
    }

    @Test func personActivatesATVWithACodeAndAProvider() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let code = try await newCode(tv)
            let browser = host.browser()
            let entry = try page(try await browser.get(host.baseURL + "/activate"))
            #expect(entry.status == 200)
            #expect(entry.body.contains("<label for=\"code\">"))
            var form = try #require(entry.forms.first)
            form.set("code", code.lowercased())
            let picker = try page(try await browser.submit(form, from: entry))
            #expect(picker.status == 200)
            #expect(picker.body.contains("Demo Cable") && picker.body.contains("Demo Fiber") && picker.body.contains("logo.svg"))
            let cable = try #require(picker.forms.first { $0["mvpd"] == "DemoCable" })
            let login = try page(try await browser.followingAutoPost(try await browser.submit(cable, from: picker)))
            #expect(login.url.contains("/demo-mvpd/DemoCable/saml/sso"))
            var credentials = try #require(login.forms.first { $0["password"] != nil })
            credentials.set("username", "alice")
            credentials.set("password", "alice-pass")
            let post = try page(try await browser.submit(credentials, from: login))
            let saml = try #require(post.forms.first { $0["SAMLResponse"] != nil })
            let done = try page(try await browser.submit(saml, from: post))
            #expect(done.url.hasSuffix("/authenticated?mvpd=DemoCable"))
            #expect(done.body.contains("You are signed in"))
            #expect(done.body.contains("Your Demo Cable account is now linked."))
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)").status == 200)

            // The same code cannot be used again.
            var again = try #require(try page(try await browser.get(host.baseURL + "/activate")).forms.first)
            again.set("code", code)
            let used = try page(try await browser.submit(again, from: entry))
            #expect(used.status == 409)
            #expect(used.body.contains("already been used"))
        }
    }

    @Test func searchFiltersProviders() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let code = try await newCode(tv)
            let browser = host.browser()
            let filtered = try page(try await browser.get(host.baseURL + "/activate/providers?code=\(code)&q=fiber"))
            #expect(filtered.forms.compactMap { $0["mvpd"] } == ["DemoFiber"])
            let none = try page(try await browser.get(host.baseURL + "/activate/providers?code=\(code)&q=zzz"))
            #expect(none.body.contains("No provider matches"))
        }
    }

    @Test func wrongExpiredAndForgedSubmissionsGetClearPages() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let code = try await newCode(tv)
            let browser = host.browser()
            let entry = try page(try await browser.get(host.baseURL + "/activate"))
            var form = try #require(entry.forms.first)

            form.set("code", "BBBBBBBB")
            let wrong = try page(try await browser.submit(form, from: entry))
            #expect(wrong.status == 400)
            #expect(wrong.body.contains("not valid"))

            var forged = form
            forged.set("csrf", "x")
            forged.set("code", code)
            let csrf = try page(try await browser.submit(forged, from: entry))
            #expect(csrf.status == 403)
            // A browser without the cookie (another site posting the form) is refused too.
            let stranger = try page(try await host.browser().submit(form, from: entry))
            #expect(stranger.status == 403)

            host.clock.advance(by: 31 * 60)
            form.set("code", code)
            let expired = try page(try await browser.submit(form, from: entry))
            #expect(expired.status == 410)
            #expect(expired.body.contains("expired"))
        }
    }

    @Test func codeGuessingIsRateLimited() async throws {
        try await LocalService.run { host in
            let browser = host.browser()
            let entry = try page(try await browser.get(host.baseURL + "/activate"))
            var form = try #require(entry.forms.first)
            var statuses: [Int] = []
            for guess in 0..<12 {
                form.set("code", "CCCCCC" + ["22", "23", "24", "25", "26", "27", "28", "29", "32", "33", "34", "35"][guess])
                statuses.append(try page(try await browser.submit(form, from: entry)).status)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 400 })
            #expect(statuses.suffix(2).allSatisfy { $0 == 429 })
        }
    }
}
