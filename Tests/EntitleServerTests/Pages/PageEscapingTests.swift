import EntitleClients
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// Values put into the service's pages stay inside their attribute, whatever characters follow a quote.
@Suite struct PageEscapingTests {
    /// `"` then a combining mark is one Swift `Character` but two code points to a browser, which ends the attribute
    /// at the quote: an escape that works on Characters lets it through.
    static let payload = "\"\u{301} autofocus onfocus=alert(1) x=\"'\u{301}<\u{301}>\u{301}&\u{301}"

    static func containsRawMarkup(_ html: String) -> Bool {
        let scalars = Array(html.unicodeScalars)
        return zip(scalars, scalars.dropFirst()).contains { pair in
            ["\"", "'", "<", ">", "&"].contains(pair.0) && pair.1 == "\u{301}"
        }
    }

    @Test func activationCodeFromTheQueryCannotLeaveItsAttribute() async throws {
        try await RouterService.run { host in
            let url = host.baseURL + "/activate?code=" + Self.payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            guard case .page(let page) = try await host.browser().get(url) else { throw BrowserError("expected a page") }
            #expect(page.status == 200)
            #expect(page.body.contains("value=\"&quot;\u{301} autofocus onfocus=alert(1) x=&quot;&#39;\u{301}&lt;\u{301}&gt;\u{301}&amp;\u{301}\""))
            #expect(!Self.containsRawMarkup(page.body))
        }
    }
}
