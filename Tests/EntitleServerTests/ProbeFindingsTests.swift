import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// The smaller findings of the second reliability probe (issue 24), each as the probe saw it.
@Suite struct ProbeFindingsTests {
    @Test func aWrongMethodIsAnswered405WithAllow() async throws {
        try await RouterService.run { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            let answer = try await client.send(.DELETE, "/healthz", authorized: false)
            #expect(answer.status == 405)
            #expect(answer.headers.first(name: "Allow") == "GET, HEAD")
            let token = try await client.send(.GET, "/o/client/token", authorized: false)
            #expect(token.status == 405)
            #expect(token.headers.first(name: "Allow") == "POST")
            #expect(try await client.send(.DELETE, "/no/such/path", authorized: false).status == 404)
        }
    }

    @Test func v1RefusesAnUnknownFormatAndThrottlesInTheAskedFormat() async throws {
        try await RouterService.run(rateLimit: 1, burst: 1) { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            let unknown = try await client.send(.GET, "/api/v1/config/REF?format=AAA", authorized: false)
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("The format parameter must be xml or json."), "\(unknown.text)")
            var throttled: RESTClient.Answer?
            for _ in 0..<5 {
                let answer = try await client.send(.GET, "/api/v1/config/REF?format=json", authorized: false)
                if answer.status == 429 { throttled = answer }
            }
            let answer = try #require(throttled)
            #expect(answer.headers.first(name: "Content-Type") == "application/json")
            #expect(answer.text.hasPrefix(#"{"status":429"#), "\(answer.text)")
            #expect(answer.headers.first(name: "Retry-After") != nil)
            let xml = try await client.send(.GET, "/api/v1/config/REF?format=xml", authorized: false)
            #expect(xml.status == 429)
            #expect(xml.text.contains("<status>429</status>"))
        }
    }

    @Test func aLogoutAnswerThatIsNotOneIsNotShownAsASignOut() async throws {
        try await RouterService.run { host in
            let browser = host.browser()
            for query in ["SAMLResponse=garbage", "SAMLResponse=garbage&RelayState=unknown", ""] {
                guard case .page(let page) = try await browser.get(host.baseURL + "/sp/saml/LogoutServiceHTTPRedirectResponse?" + query) else {
                    throw BrowserError("no page")
                }
                #expect(page.status == 400, "\(query)")
                #expect(!page.body.contains("You are signed out."), "\(query)")
                #expect(page.body.contains("Sign-out not recognised"), "\(query)")
            }
        }
    }
}
