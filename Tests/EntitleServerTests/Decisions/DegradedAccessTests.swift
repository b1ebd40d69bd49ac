import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Degradation rules and Promotional TempPass, against the real service.
@Suite struct DegradedAccessTests {
    @Test func authnAllSignsInWithoutTheMVPDUntilTheRuleEnds() async throws {
        try await RouterService.run { host in
            let now = host.clock.now()
            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authn-all", start: now.addingTimeInterval(-1),
                end: now.addingTimeInterval(3600))
            let tv = try await host.client()
            let session = try await tv.createSession(mvpd: "DemoCable", redirectURL: nil).decode(SessionResponse.self)
            #expect(session.actionName == "authorize")
            #expect(session.reasonType == "degraded")
            let profile = try #require(try await tv.send(.GET, "/api/v2/REF/profiles/DemoCable").decode(ProfilesResponse.self).profiles["DemoCable"])
            #expect(profile.type == "degraded")
            #expect(profile.attributes["userID"]?.value.stringValue?.hasPrefix("95cf93bcd183214a") == true)
            let decision = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(decision.authorized && decision.source == "degradation" && decision.token != nil)
            #expect(
                try await tv.send(.GET, "/api/v2/REF/logout/DemoCable").decode(LogoutsResponse.self).logouts["DemoCable"]?.actionName == "complete")

            host.clock.advance(by: 3601)
            let later = try await host.client()
            #expect(try await later.createSession(mvpd: "DemoCable", redirectURL: nil).decode(SessionResponse.self).actionName == "authenticate")
        }
    }

    @Test func authzAllAndAuthzNoneOverrideTheMVPD() async throws {
        // A real socket: the service asks the DemoMVPD's authorization API over HTTP.
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let now = host.clock.now()
            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authz-all", start: now, end: now.addingTimeInterval(600))
            let granted = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(granted.authorized && granted.source == "degradation")

            try await host.service.support.setDegradation(
                requestor: "REF", mvpd: "DemoCable", rule: "authz-none", start: now, end: now.addingTimeInterval(600))
            let denied = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions[0]
            #expect(!denied.authorized && denied.source == "degradation")
            #expect(denied.error?.code == "authorization_denied_by_degradation_rule")
            let pre = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions[0]
            #expect(pre.error?.code == "authorization_denied_by_degradation_rule")

            #expect(try await host.service.repository.degradationStore.deleteDegradationRule(requestor: "REF", mvpd: "DemoCable", rule: "authz-none"))
            #expect(try await host.service.repository.degradationStore.deleteDegradationRule(requestor: "REF", mvpd: "DemoCable", rule: "authz-all"))
            let normal = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(normal.error?.code == "authorization_denied_by_parental_controls")
        }
    }

    @Test func invalidRulesAreRefused() async throws {
        try await RouterService.run { host in
            let now = host.clock.now()
            await #expect(throws: ConfigurationError.self) {
                try await host.service.support.setDegradation(
                    requestor: "REF", mvpd: "DemoCable", rule: "everything", start: now, end: now.addingTimeInterval(60))
            }
            await #expect(throws: ConfigurationError.self) {
                try await host.service.support.setDegradation(requestor: "REF", mvpd: "DemoCable", rule: "authz-all", start: now, end: now)
            }
            await #expect(throws: ConfigurationError.self) {
                try await host.service.support.setDegradation(
                    requestor: "REF", mvpd: "Nope", rule: "authz-all", start: now, end: now.addingTimeInterval(60))
            }
        }
    }

    @Test func promotionalTempPassLimitsResourcesPerIdentity() async throws {
        try await RouterService.run { host in
            let identity = Data(#"{"email":"f7ee5ec7312165148b69fcca1d29075b14b8aef0b5048a332b18b88d09069fb7"}"#.utf8).base64EncodedString()
            let header = [("AP-TempPass-Identity", identity)]
            let tv = try await host.client()
            let missing = try await tv.createSession(mvpd: "TempPassPromo", redirectURL: nil)
            #expect(missing.status == 400)
            #expect(try missing.decode(EnhancedError.self).code == "invalid_header_identity_for_temporary_access")
            let bad = try await tv.send(
                .POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: [("AP-TempPass-Identity", "e30K!!")])
            #expect(try bad.decode(EnhancedError.self).code == "invalid_header_identity_for_temporary_access")

            let session = try await tv.send(.POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: header).decode(
                SessionResponse.self)
            #expect(session.reasonType == "temporary")
            for resource in ["news", "sports", "movies", "news"] {
                let decision = try await tv.decisions("authorize", mvpd: "TempPassPromo", resources: [resource]).decode(DecisionsResponse.self)
                    .decisions[0]
                #expect(decision.authorized, "\(resource)")
            }
            let profile = try #require(
                try await tv.send(.GET, "/api/v2/REF/profiles/TempPassPromo").decode(ProfilesResponse.self).profiles["TempPassPromo"])
            #expect(profile.attributes["remaining_resources"]?.value == .string("0"))
            #expect(profile.attributes["used_assets"]?.value == .string("3"))
            let fourth = try await tv.decisions(
                "authorize", mvpd: "TempPassPromo", resources: ["<rss><channel><title>news</title><item><guid>x</guid></item></channel></rss>"]
            )
            .decode(DecisionsResponse.self).decisions[0]
            #expect(fourth.error?.code == "temporary_access_resources_limit_exceeded")

            // The same identity on another device continues the same pass.
            let phone = try await host.client()
            _ = try await phone.send(.POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: header)
            let other = try await phone.decisions("authorize", mvpd: "TempPassPromo", resources: ["kids"]).decode(DecisionsResponse.self).decisions[0]
            #expect(other.error?.code == "temporary_access_resources_limit_exceeded")

            // An operator resets the identity's pass: a new trial starts.
            #expect(
                try await host.service.support.resetTempPass(
                    requestor: "REF", mvpd: "TempPassPromo", device: nil,
                    identity: #"{"email":"f7ee5ec7312165148b69fcca1d29075b14b8aef0b5048a332b18b88d09069fb7"}"#) == 1)
            _ = try await phone.send(.POST, "/api/v2/REF/sessions", form: [("mvpd", "TempPassPromo")], headers: header)
            #expect(
                try await phone.decisions("authorize", mvpd: "TempPassPromo", resources: ["kids"]).decode(DecisionsResponse.self).decisions[0]
                    .authorized)
        }
    }

    @Test func plainTempPassResetsPerDevice() async throws {
        try await RouterService.run { host in
            let tv = try await host.client(device: "tv-1")
            _ = try await tv.createSession(mvpd: "TempPass", redirectURL: nil)
            host.clock.advance(by: 11 * 60)
            #expect(try await tv.createSession(mvpd: "TempPass", redirectURL: nil).status == 403)
            #expect(try await host.service.support.resetTempPass(requestor: "REF", mvpd: "TempPass", device: "tv-1", identity: nil) == 1)
            #expect(try await tv.createSession(mvpd: "TempPass", redirectURL: nil).decode(SessionResponse.self).reasonType == "temporary")
        }
    }
}
