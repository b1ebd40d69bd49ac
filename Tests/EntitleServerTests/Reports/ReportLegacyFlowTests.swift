import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// REST API v1 feeds the same reports as REST v2: a second-screen sign-in, plays through `mediatoken` (one decision,
/// then tokens from the stored AuthZ token), a denied `authorize` and a `preauthorize`, counted for the platform the
/// device sent in `device_info`.
@Suite struct ReportLegacyFlowTests {
    @Test func restV1SignInsPlaysAndPreauthorizationsAreCounted() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "roku-bob")
            let tv = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "roku-bob")
            let info = DeviceInfo(primaryHardwareType: "SetTopBox", manufacturer: "Roku", osName: "Roku OS").headerValue()
            let created = try await tv.call(.POST, "/reggie/v1/REF/regcode", [("deviceId", "roku-bob"), ("device_info", info)])
            let code = try #require(created.json?["code"] as? String, "\(created.text)")
            guard case .page(let landed) = try await tv.login(code: code, user: "bob"), landed.status == 200 else {
                Issue.record("bob not signed in")
                return
            }
            let play = [("resource", "news"), ("device_info", info)]
            #expect(try await tv.device(.GET, "/api/v1/mediatoken", play).status == 200)
            #expect(try await tv.device(.GET, "/api/v1/tokens/media", play).status == 200)
            #expect(try await tv.device(.GET, "/api/v1/authorize", [("resource", "movies"), ("device_info", info)]).status == 403)
            #expect(try await tv.device(.GET, "/api/v1/preauthorize", [("resource", "news,movies"), ("device_info", info)]).status == 200)

            let session = try await AdminAPITests.operatorSession(host, "viewer", role: .readOnly)
            let token = try #require(session.object["token"] as? String)
            let report = try await ReportFlowTests.report(
                host, token: token, "/admin/api/v1/reports/platform?granularity=total&" + ReportFlowTests.range(host))
            let rows = try #require(report["rows"] as? [[String: Any]])
            #expect(rows.map { $0["platform"] as? String } == ["Roku"], "\(report)")
            let expected: [(String, Int)] = [
                ("authnAttempts", 1), ("authnSuccesses", 1), ("authnFailures", 0), ("authzAttempts", 2), ("authzGrants", 1),
                ("authzDenials", 1), ("mediaTokens", 2), ("preauthorizations", 1), ("preauthGrants", 1), ("preauthDenials", 1),
            ]
            for (name, value) in expected { #expect(ReportFlowTests.number(rows.first, name) == value, "\(name) in \(report)") }
        }
    }
}
