import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Preflight by channel lineup from an IdP this project did not write: the pysaml2 IdP (`scripts/pysaml2-idp`) releases
/// `authorized_resources` for grace; Entitle keeps it with the sign-in and answers preauthorize from it, with no call
/// to the MVPD's authorization endpoint (the DemoMVPD's, counted there). The IdP runs as a process on loopback and is
/// stopped by the test.
@Suite(.timeLimit(.minutes(10))) struct PreflightLineupForeignIdPTests {
    @Test(.enabled(if: Pysaml2IdP.available))
    func aLineupReleasedByPysaml2AnswersPreauthorize() async throws {
        try await LocalService.run { local in
            let idp = try await Pysaml2IdP.start(for: local)
            defer { idp.stop() }
            let idpMetadata = idp.metadata

            // The MVPD: pysaml2 for sign-in, the DemoMVPD's authorization endpoint (which does not know grace) for plays.
            let demoCable = try #require(try await local.service.repository.catalogStore.mvpd(id: "DemoCable"))
            let options = MVPDOptions(
                displayName: "Py IdP", logoURL: "", authorizationURL: demoCable.authorizationUrl, authorizationKey: demoCable.authorizationKey)
            _ = try await local.service.mvpds.importSAML(id: "PyIdP", metadataXML: idpMetadata, options: options, requestors: ["REF"], actor: "test")
            try await local.service.integrations.setPreflightMode(requestor: "REF", mvpd: "PyIdP", .lineup, actor: "test")

            // Sign-in through pysaml2 (the generic web flow: the login form, then the auto-post form back to us).
            let tv = try await local.client()
            let created = try await tv.createSession(mvpd: "PyIdP", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            try await Pysaml2IdP.signIn(local, session: created, username: "grace", password: "grace-pass")

            let code = try #require(created.code)
            let profile = try #require(try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: code))
            #expect(profile.userId == "G-200" || profile.nameId == "G-200", "\(profile)")
            #expect(profile.lineup == #"["news","sports"]"#, "the lineup pysaml2 released: \(profile.attributes)")
            let demo = try #require(local.host.demo)
            let before = demo.authorizationRequests.count
            let decisions = try await tv.decisions("preauthorize", mvpd: "PyIdP", resources: ["news", "sports", "movies"])
                .decode(DecisionsResponse.self).decisions
            #expect(decisions.map(\.authorized) == [true, true, false], "\(decisions)")
            #expect(decisions[2].error?.code == .preauthorizationDeniedByMVPD)
            #expect(demo.authorizationRequests.count == before, "no MVPD call at preauthorize")
            _ = try await tv.decisions("authorize", mvpd: "PyIdP", resources: ["news"])
            #expect(demo.authorizationRequests.count == before + 1, "authorize asks the MVPD")
        }
    }
}
