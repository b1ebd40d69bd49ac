import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// Partner (Apple) single sign-on feeds the reports: the partner session is the attempt, the profile the success; a
/// replayed answer to a complete sign-in is no new failure.
extension PartnerSSOTests {
    @Test func partnerSignInsAreCountedInTheReports() async throws {
        try await LocalService.run { host in
            var tv = try await host.client()
            tv.deviceInfo = DeviceInfo(primaryHardwareType: "TV", osName: "tvOS")
            let header = [("AP-Partner-Framework-Status", frameworkStatus(expires: host.clock.nowMilliseconds() + 3_600_000))]
            let start = try await tv.send(.POST, "/api/v2/REF/sessions/sso/Apple", form: [("domainName", "ios.app")], headers: header)
            let request = try #require(try start.decode(SessionResponse.self).authenticationRequest)
            let answer = try await platformAnswer(host, token: request.request)
            let samlResponse = try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: String])?["samlAttributeQueryResponse"])
            let form = [("SAMLResponse", samlResponse)]
            #expect(try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: form, headers: header).status == 201)
            #expect(try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: form, headers: header).status == 400)
            #expect(try await tv.decisions("authorize", mvpd: "DemoSSO", resources: ["news"]).status == 200)

            let session = try await AdminAPITests.operatorSession(host, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            let report = try await ReportFlowTests.report(
                host, token: token, "/admin/api/v1/reports/mvpd/platform?granularity=total&" + ReportFlowTests.range(host))
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.count == 1 && rows.first?["mvpd"] as? String == "DemoSSO" && rows.first?["platform"] as? String == "tvOS", "\(report)")
            let expected = [("authnAttempts", 1), ("authnSuccesses", 1), ("authnFailures", 0), ("authzGrants", 1), ("mediaTokens", 1)]
            for (name, value) in expected { #expect(ReportFlowTests.number(rows.first, name) == value, "\(name) in \(report)") }
        }
    }
}
