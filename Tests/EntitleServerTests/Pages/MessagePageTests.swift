import EntitleClients
import EntitleHost
import EntitleTesting
import Testing

/// The plain message page of the browser leg's dead ends, rendered from its Mustache template.
@Suite struct MessagePageTests {
    @Test func unknownSignInCodeGetsThePlainMessagePageByteForByte() async throws {
        try await RouterService.run { host in
            let outcome = try await host.browser().get(host.baseURL + "/api/v2/authenticate/REF/ZZZZ2345")
            guard case .page(let page) = outcome else { throw BrowserError("expected a page, got \(outcome)") }
            #expect(page.status == 400)
            let title = "This sign-in link is not valid"
            let message = "The code is unknown or has expired. Start signing in again from your app or TV."
            #expect(
                page.body == """
                    <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
                    <title>\(title)</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
                    h1{font-size:1.5rem}</style></head><body><main><h1>\(title)</h1><p>\(message)</p></main></body></html>
                    """)
        }
    }
}
