import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleTesting
import NIOHTTP1
import Testing

/// A console change posted without a valid session (none, or one that ended) is refused with 401 and a fresh sign-in
/// form saying nothing was changed — not a redirect, which is a page's answer: a form is refused, as the admin API
/// refuses a change without a session, whatever its fields (and `/openapi.json` documents it so).
@Suite struct ConsoleChangeWithoutSessionTests {
    @Test func aChangeWithoutASessionIsRefusedWithTheSignInForm() async throws {
        try await LocalService.run { local in
            for (path, form) in [
                ("/console/requestors/REF/integrations/DemoCable", ["csrf": "x", "description": "why", "enabled": "false"]),
                ("/console/requestors/REF/statements", [:]),
                ("/console/sign-out", [:]),
            ] {
                let answer = try await ConsoleTests.call(local, .POST, path, form: form)
                #expect(answer.status == 401, "\(path): \(answer.status)")
                #expect(answer.headers["Location"].isEmpty, "\(path)")
                #expect(answer.text.contains("nothing was changed") && answer.text.contains("action=\"/console/sign-in\""), "\(path)")
                // The form on that page works: it carries its own anti-forgery value, tied to a fresh cookie.
                #expect(
                    answer.field("login").map { !$0.isEmpty } == true
                        && answer.cookies[ConsoleSignInController.loginCookieName] == answer.field("login"))
            }
            let ended = try await ConsoleTests.call(
                local, .POST, "/console/requestors/REF/integrations/DemoCable", form: ["csrf": "x", "description": "why", "enabled": "false"],
                cookie: "entitle_admin=ended")
            #expect(ended.status == 401)
            #expect(try await local.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first?.enabled == true, "nothing changed")
            // A page (GET) still goes to the sign-in page.
            let page = try await ConsoleTests.call(local, .GET, "/console/mvpds")
            #expect(page.status == 303 && page.headers["Location"].first == "/console/sign-in")
        }
    }
}
