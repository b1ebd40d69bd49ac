import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleModel
import EntitleTesting
import Foundation
import Testing

/// Home-based authentication (HBA) from an IdP this project did not write: the pysaml2 IdP (`scripts/pysaml2-idp`)
/// says henry signed in at home with an attribute of its own naming (`homeBased`), which the MVPD's attribute mapping
/// makes `hba_status`. The integration gives home-based sign-ins an hour and keeps `movies` from them; frank's sign-in
/// (with credentials) keeps the integration's 30 days and may watch movies.
@Suite(.timeLimit(.minutes(10))) struct HomeBasedSignInTests {
    @Test(.enabled(if: Pysaml2IdP.available))
    func aHomeBasedSignInLastsItsOwnLifetimeAndIsDeniedTheResourcesKeptFromIt() async throws {
        try await LocalService.run { local in
            let idp = try await Pysaml2IdP.start(for: local)
            defer { idp.stop() }
            var options = MVPDOptions(displayName: "Py IdP", logoURL: "")
            options.authorizeAllAuthenticated = true
            options.attributeMapping = [ProfileRecord.homeBasedAttribute: ["homeBased"]]
            _ = try await local.service.mvpds.importSAML(id: "PyIdP", metadataXML: idp.metadata, options: options, requestors: ["REF"], actor: "test")
            let policy = try await local.service.integrations.setHBAPolicy(
                requestor: "REF", mvpd: "PyIdP", .init(profileTTLSeconds: 3600, deniedResources: ["movies", " movies ", ""]), actor: "ops")
            #expect(policy == HBAPolicy(profileTTLSeconds: 3600, deniedResources: ["movies"]))
            let view = try #require(try await local.service.integrations.views(requestor: "REF", mvpd: "PyIdP").first)
            #expect(view.hbaProfileTTLSeconds == 3600 && view.hbaDeniedResources == ["movies"])
            let change = try #require(try await local.service.repository.changeLogStore.changes(since: 0).last)
            #expect(change.actor == "ops" && change.target == "REF/PyIdP" && (change.valueAfter ?? "").contains("movies"), "\(change)")

            let home = try await local.client()
            let homeSession = try await home.createSession(mvpd: "PyIdP", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            try await Pysaml2IdP.signIn(local, session: homeSession, username: "henry", password: "henry-pass")
            let away = try await local.client()
            let awaySession = try await away.createSession(mvpd: "PyIdP", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            try await Pysaml2IdP.signIn(local, session: awaySession, username: "frank", password: "frank-pass")

            // The profile says it was home-based (user metadata hba_status) and lasts the HBA lifetime.
            let homeProfile = try #require(try await home.send(.GET, "/api/v2/REF/profiles/PyIdP").decode(ProfilesResponse.self).profiles["PyIdP"])
            #expect(homeProfile.notAfter - homeProfile.notBefore == 3_600_000)
            #expect(homeProfile.attributes["hba_status"]?.value == .string("true"), "\(homeProfile.attributes)")
            let awayProfile = try #require(try await away.send(.GET, "/api/v2/REF/profiles/PyIdP").decode(ProfilesResponse.self).profiles["PyIdP"])
            #expect(awayProfile.notAfter - awayProfile.notBefore == 30 * 86_400_000)
            #expect(awayProfile.attributes["hba_status"] == nil)

            // Movies are kept from the home-based sign-in only; news is not.
            let atHome = try await home.decisions("authorize", mvpd: "PyIdP", resources: ["news", "movies"]).decode(DecisionsResponse.self).decisions
            #expect(atHome.map(\.authorized) == [true, false], "\(atHome)")
            #expect(atHome[1].error?.code == .authorizationDeniedByHBAPolicies && atHome[1].error?.status == 403, "\(atHome[1])")
            #expect(atHome[0].token != nil && atHome[1].token == nil)
            let mrss = "<rss version=\"2.0\"><channel><title>movies</title><item><title>Heist</title></item></channel></rss>"
            let item = try await home.decisions("authorize", mvpd: "PyIdP", resources: [mrss]).decode(DecisionsResponse.self).decisions
            #expect(item.first?.error?.code == .authorizationDeniedByHBAPolicies, "an MRSS item of the channel too: \(item)")
            let elsewhere = try await away.decisions("authorize", mvpd: "PyIdP", resources: ["movies"]).decode(DecisionsResponse.self).decisions
            #expect(elsewhere.map(\.authorized) == [true], "\(elsewhere)")

            // Past the hour the home-based sign-in is over; the other one is not.
            local.clock.advance(by: 3601)
            let later = try await home.send(.GET, "/api/v2/REF/profiles/PyIdP").decode(ProfilesResponse.self)
            #expect(later.profiles.isEmpty, "\(later)")
            #expect(try await away.send(.GET, "/api/v2/REF/profiles/PyIdP").decode(ProfilesResponse.self).profiles["PyIdP"] != nil)

            // The policy removed: home-based sign-ins are treated as any other.
            try await local.service.integrations.setHBAPolicy(
                requestor: "REF", mvpd: "PyIdP", .init(profileTTLSeconds: 0, deniedResources: []), actor: "ops")
            #expect(try await local.service.integrations.hbaPolicy(requestor: "REF", mvpd: "PyIdP") == HBAPolicy())
        }
    }

    /// `entitle admin integration set --hba-…` as a process on the service's storage; bad values are plain messages, a
    /// failing exit, and change nothing.
    @Test func theHBAPolicyIsSetFromTheCommandLineAndBadValuesChangeNothing() async throws {
        try await LocalService.run { service in
            let set = try await PreflightLineupCommandTests.admin(
                service,
                [
                    "integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--hba-profile-ttl", "7200", "--hba-deny-resource", "movies",
                    "--hba-deny-resource", "sports",
                ])
            #expect(set.status == 0, "\(set.stderr)")
            let expected = HBAPolicy(profileTTLSeconds: 7200, deniedResources: ["movies", "sports"])
            #expect(try await service.service.integrations.hbaPolicy(requestor: "REF", mvpd: "DemoCable") == expected)
            let list = try await PreflightLineupCommandTests.admin(service, ["integration", "list", "--requestor", "REF", "--mvpd", "DemoCable"])
            #expect(list.stdout.contains("hba-profile-ttl=7200") && list.stdout.contains("hba-denied=movies,sports"), "\(list.stdout)")

            let cases: [([String], String)] = [
                (["--hba-profile-ttl", "59"], "60 seconds to 400 days"),
                (["--hba-deny-resource", "bad\u{202E}name"], "printable characters"),
                (["--hba-deny-resource", "news", "--hba-allow-all-resources"], "exclude each other"),
            ]
            for (options, words) in cases {
                let refused = try await PreflightLineupCommandTests.admin(
                    service, ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable"] + options)
                #expect(refused.status != 0 && refused.stderr.contains(words), "\(options): \(refused.status) \(refused.stderr)")
            }
            let unknown = try await PreflightLineupCommandTests.admin(
                service, ["integration", "set", "--requestor", "REF", "--mvpd", "NoSuchMVPD", "--hba-profile-ttl", "600"])
            #expect(unknown.status != 0 && unknown.stderr.contains("not integrated"), "\(unknown.stderr)")
            #expect(try await service.service.integrations.hbaPolicy(requestor: "REF", mvpd: "DemoCable") == expected)

            let cleared = try await PreflightLineupCommandTests.admin(
                service,
                ["integration", "set", "--requestor", "REF", "--mvpd", "DemoCable", "--hba-profile-ttl", "0", "--hba-allow-all-resources"])
            #expect(cleared.status == 0, "\(cleared.stderr)")
            #expect(try await service.service.integrations.hbaPolicy(requestor: "REF", mvpd: "DemoCable") == HBAPolicy())
        }
    }
}
