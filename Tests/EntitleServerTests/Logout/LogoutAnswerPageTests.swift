import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// The page after an MVPD's logout answer: only a real answer says the viewer is signed out.
@Suite struct LogoutAnswerPageTests {
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
