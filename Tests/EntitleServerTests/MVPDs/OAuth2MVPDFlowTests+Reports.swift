import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// Sign-ins at an OAuth 2.0 MVPD feed the reports like SAML ones: the authorization request is the attempt, the
/// profile the success, a cancel at the provider the failure.
extension OAuth2MVPDFlowTests {
    @Test func oauth2SignInsAreCountedInTheReports() async throws {
        try await withStreamTV { host, _ in
            let sam = try await host.client()
            guard case .external = try await signIn(host, sam) else { throw ProviderError("the sign-in did not return to the app") }
            let other = try await host.client()
            let (browser, login, _) = try await openLogin(host, other)
            var form = try #require(login.forms.first)
            form.fields.append(("deny", "1"))
            _ = try await browser.submit(form, from: login)

            let session = try await AdminAPITests.operatorSession(host, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            let report = try await ReportFlowTests.report(
                host, token: token, "/admin/api/v1/reports/mvpd?granularity=total&mvpd=\(Self.mvpd)&" + ReportFlowTests.range(host))
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.count == 1, "\(report)")
            #expect(ReportFlowTests.number(rows.first, "authnAttempts") == 2, "\(report)")
            #expect(ReportFlowTests.number(rows.first, "authnSuccesses") == 1, "\(report)")
            #expect(ReportFlowTests.number(rows.first, "authnFailures") == 1, "\(report)")
        }
    }
}
