import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// `DELETE /api/v2/{sp}/sessions/{code}`: the device that showed a code gives it up; the code then leads nowhere.
@Suite struct SessionCancelTests {
    @Test func onlyTheDeviceThatCreatedASessionCancelsItAndTheCodeThenLeadsNowhere() async throws {
        try await RouterService.run { host in
            let tv = try await host.client()
            let code = try #require(try await tv.createSession(mvpd: "DemoCable", redirectURL: nil).decode(SessionResponse.self).code)

            // Another device (or client) cannot cancel it: to them the code does not exist.
            let stranger = try await host.client()
            #expect(try await stranger.send(.DELETE, "/api/v2/REF/sessions/\(code)").status == 400)

            #expect(try await tv.send(.DELETE, "/api/v2/REF/sessions/\(code)").status == 204)
            let browser = host.browser()
            guard case .page(let signIn) = try await browser.get(host.baseURL + "/api/v2/authenticate/REF/\(code)") else {
                throw BrowserError("no page")
            }
            #expect(signIn.status == 410)
            #expect(signIn.body.contains("This sign-in was cancelled"))
            guard case .page(let entry) = try await browser.get(host.baseURL + "/activate?code=\(code)") else { throw BrowserError("no page") }
            let form = try #require(entry.forms.first)
            guard case .page(let activation) = try await browser.submit(form, from: entry) else { throw BrowserError("no page") }
            #expect(activation.status == 410)
            #expect(activation.body.contains("This code was cancelled"))
            // The device's own view agrees: the session is not resumable.
            let view = try await tv.send(.GET, "/api/v2/REF/sessions/\(code)")
            #expect(view.status == 400)
            #expect(view.text.contains("invalid_authentication_session"))
            #expect(!view.text.contains("resume"))
            // Cancelling again is harmless.
            #expect(try await tv.send(.DELETE, "/api/v2/REF/sessions/\(code)").status == 204)
        }
    }
}
