import AsyncHTTPClient
import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// Enhanced Error Codes Adobe defines that Entitle produces where their condition exists (issue 39 point 5):
/// `identity_not_recognized_by_mvpd` (the MVPD does not know the user), `maximum_execution_time_exceeded` (an MVPD
/// authorization call ran out of time), `invalid_configuration_mvpd_platform_boarding_status` (partner SSO for an MVPD
/// not boarded as SUPPORTED). The platform-services case is in PartnerSSOTests.
@Suite struct EnhancedErrorCoverageTests {
    @Test func anMVPDThatDoesNotKnowTheUserIsIdentityNotRecognized() async throws {
        try await LocalService.run { host in
            let mvpd = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoCable"))
            let client = MVPDAuthorizationClient(httpClient: host.httpClient, timeoutSeconds: 10)
            let verdict = await client.authorize(mvpd: mvpd, userID: "nobody-here", resource: "news")
            guard case .failed(let error) = verdict else { Issue.record("\(verdict)"); return }
            #expect(error.code == .identityNotRecognizedByMVPD && error.status == 403 && error.action == .authentication)
            #expect(error.details?.contains("no subscriber") == true)
            // A known user's denial stays a denial.
            let denied = await client.authorize(mvpd: mvpd, userID: "dc-bob-2c9e", resource: "movies")
            guard case .denied(let parental, _) = denied else { Issue.record("\(denied)"); return }
            #expect(parental)
        }
    }

    @Test func anMVPDThatDoesNotAnswerInTimeIsMaximumExecutionTimeExceeded() async throws {
        let stalled = StalledMVPD()
        try await stalled.run { url in
            let mvpd = MVPDRecord(
                id: "Slow", displayName: "Slow", logoUrl: "", kind: .saml, certificates: [], authorizationUrl: url,
                requiresSafariViewController: false, enablePlatformServices: false, displayInPlatformPicker: false, profileTtlSeconds: 3600,
                encryptedAttributes: [])
            let verdict = await MVPDAuthorizationClient(httpClient: .shared, timeoutSeconds: 1).authorize(mvpd: mvpd, userID: "u", resource: "news")
            guard case .failed(let error) = verdict else { Issue.record("\(verdict)"); return }
            #expect(error.code == .maximumExecutionTimeExceeded && error.status == 403 && error.action == .retry)
        }
    }

    @Test func partnerSSOForAnMVPDNotBoardedAsSupportedIsABoardingStatusError() async throws {
        try await LocalService.run { host in
            var update = MVPDUpdate()
            update.boardingStatus = "PICKER"
            try await host.service.mvpds.update(id: "DemoSSO", update, actor: "test")
            let tv = try await host.client()
            let header = PartnerFrameworkStatus(
                frameworkPermissionInfo: .init(accessStatus: "granted"), frameworkProviderInfo: .init(id: "DemoSSO", expirationDate: nil)
            ).headerValue()
            let answer = try await tv.send(.POST, "/api/v2/REF/sessions/sso/Apple", form: [], headers: [("AP-Partner-Framework-Status", header)])
            #expect(answer.status == 400)
            let error = try answer.decode(EnhancedError.self)
            #expect(error.code == .invalidConfigurationMVPDPlatformBoardingStatus && error.action == .configuration, "\(answer.text)")
        }
    }
}
