import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// The console's single sign-on page: issuers listed, registered from the form (a PEM key pasted), removed, each
/// change in the changes log with the operator's why; a bad key is a message on the page, never a 500.
@Suite struct ConsoleSSOTests {
    @Test func anOperatorRegistersAndRemovesAnIssuerFromTheConsole() async throws {
        try await LocalService.run { local in
            let (cookie, csrf) = try await ConsoleTests.signIn(local, "ops", role: .readWrite)
            let empty = try await ConsoleTests.call(local, .GET, "/console/sso", cookie: cookie)
            #expect(empty.status == 200 && empty.text.contains("No SSO issuer yet.") && empty.text.contains("aria-current=\"page\">Single sign-on"))

            let pem = SSOTestIssuer.p256().publicKeyPEM
            let form = [
                "csrf": csrf, "description": "Roku channel launch", "id": "roku", "type": "roku", "issuer": "roku.com", "publicKey": pem,
                "requestors": "REF",
            ]
            let added = try await ConsoleTests.call(local, .POST, "/console/sso", form: form, cookie: cookie)
            #expect(added.status == 303)
            #expect(added.flash.contains("SSO issuer roku is registered"), "\(added.flash)")
            let listed = try await ConsoleTests.call(local, .GET, "/console/sso", cookie: cookie)
            #expect(listed.text.contains("<td>roku.com</td>") && listed.text.contains("X-Roku-Reserved-Roku-Connect-Token"))
            #expect(listed.text.contains("ES256 sha256:") && !listed.text.contains("BEGIN PUBLIC KEY"))

            let bad = try await ConsoleTests.call(
                local, .POST, "/console/sso", form: form.merging(["id": "x", "publicKey": "not a key"]) { $1 }, cookie: cookie)
            #expect(bad.status == 303 && bad.flash.contains("public key 1"), "\(bad.flash)")

            let removed = try await ConsoleTests.call(
                local, .POST, "/console/sso/roku/remove", form: ["csrf": csrf, "description": "channel retired"], cookie: cookie)
            #expect(removed.status == 303 && removed.flash.contains("SSO issuer roku is removed"), "\(removed.flash)")
            #expect(try await local.service.ssoIssuers.issuers().isEmpty)
            let entries = try await local.service.changes.recorded(since: 0).filter { $0.target == "roku" }
            #expect(entries.map(\.action) == ["sso.add", "sso.remove"])
            #expect(entries.map { $0.description ?? "" } == ["Roku channel launch", "channel retired"])
        }
    }
}
