import DemoMVPD
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Values put into the DemoMVPD's pages stay inside their attribute, whatever characters follow a quote.
@Suite("DemoMVPD page escaping")
struct DemoPageEscapingTests {
    @Test("a username with a quote and a combining mark is escaped on the login page that shows it again")
    func usernameCannotLeaveItsAttribute() async throws {
        // `"` then U+0301 is one Swift Character but a quote that ends the attribute to a browser.
        let username = "\"\u{301} autofocus onfocus=alert(1) x=\"'\u{301}"
        try await Fixture.application().test(.router) { client in
            var browser = TestBrowser(client)
            let (_, page) = try await LoginFlowTests.openLogin(&browser)
            let failed = try await LoginFlowTests.submit(&browser, page: page, username: username, password: "wrong")
            #expect(failed.status == .unauthorized)
            #expect(failed.text.contains("value=\"&quot;\u{301} autofocus onfocus=alert(1) x=&quot;&#39;\u{301}\""))
            let scalars = Array(failed.text.unicodeScalars)
            #expect(!zip(scalars, scalars.dropFirst()).contains { ["\"", "'"].contains($0.0) && $0.1 == "\u{301}" })
        }
    }
}
