import EntitleCore
import Foundation
@testable import EntitleDomain
import EntitleModel
@testable import EntitleStorage
import Synchronization
import Testing

/// The one sign-out every protocol calls (``Logout``), on a migrated database of each engine and a manual clock, without
/// a service: what it forgets, what it keeps, and what it tells the protocol to do next.
@Suite struct LogoutTests {
    static let device = Logout.Device(requestor: "REF", client: "client-1", device: "device-1")
    static let now: Int64 = 1_800_000_000_000

    static func mvpd(_ id: String, singleLogout: Bool) -> MVPDRecord {
        MVPDRecord(
            id: id, displayName: id, logoUrl: "", kind: .saml, entityId: "urn:" + id, ssoUrl: "https://idp.example/sso",
            sloUrl: singleLogout ? "https://idp.example/slo" : nil, certificates: [], requiresSafariViewController: false,
            enablePlatformServices: false, displayInPlatformPicker: false, profileTtlSeconds: 3600, encryptedAttributes: [])
    }

    static func profile(_ mvpd: String, type: ProfileType = .regular, notBefore: Int64 = now - 1000) -> ProfileRecord {
        ProfileRecord(
            requestorId: device.requestor, clientId: device.client, deviceId: device.device, mvpdId: mvpd, type: type, issuer: mvpd,
            notBefore: notBefore, notAfter: now + 3_600_000, attributes: "{}", nameId: "name-" + mvpd, sessionIndex: "index-" + mvpd,
            userId: "user-" + mvpd)
    }

    /// A repository with MVPDs `SLO` (Single Logout) and `Plain` (none), the device signed in with both, an AuthZ token
    /// of REST v1 and an MVPD answer kept for each sign-in.
    static func withSignedInDevice(_ body: (Repository, AuthorizationCache, Logout) async throws -> Void) async throws {
        try await ScratchEngines.withEach { engine in
            let repository = Repository(sql: engine.sql)
            for mvpd in [mvpd("SLO", singleLogout: true), mvpd("Plain", singleLogout: false)] {
                try await repository.catalogStore.upsertMVPD(mvpd)
                try await repository.profileStore.upsertProfile(profile(mvpd.id))
            }
            try await repository.legacyStore.upsertLegacyAuthorization(
                LegacyAuthorizationRecord(
                    requestorId: device.requestor, clientId: device.client, deviceId: device.device, resource: "news", mvpdId: "SLO",
                    notBefore: now - 1000, notAfter: now + 60_000))
            let authorizations = AuthorizationCache()
            let logout = Logout(
                catalog: repository.catalogStore, profiles: repository.profileStore, legacy: repository.legacyStore,
                sessions: repository.sessionStore,
                authorizations: authorizations, logoutRequestLifetime: 600_000, clock: ManualClock(Date(timeIntervalSince1970: Double(now) / 1000)))
            try await body(repository, authorizations, logout)
        }
    }

    /// Asks the cache for the answer of `mvpd`'s sign-in and says whether the MVPD was asked (false: a kept answer).
    static func askedMVPD(_ cache: AuthorizationCache, _ mvpd: String) async -> Bool {
        let asked = Atomic(false)
        _ = await cache.answer(
            subject: .init(requestor: device.requestor, mvpd: mvpd, userID: "user-" + mvpd),
            question: .init(
                signIn: .init(notBefore: now - 1000, session: "", client: device.client, device: device.device), resource: "news"),
            now: now, ttl: 60_000, notAfter: now + 60_000, catalogGeneration: 0
        ) {
            asked.store(true, ordering: .relaxed)
            return .authorized
        }
        return asked.load(ordering: .relaxed)
    }

    @Test func signingOutOfEveryMVPDForgetsProfilesKeptAnswersAndAuthZTokensAndStartsSingleLogout() async throws {
        try await Self.withSignedInDevice { repository, authorizations, logout in
            for mvpd in ["SLO", "Plain"] { _ = await Self.askedMVPD(authorizations, mvpd) }
            let outcomes = try await logout.signOut(Self.device, redirectURL: "adobepass://ios.app")
            #expect(outcomes["Plain"] == .complete)
            guard case .singleLogout(let requestID) = outcomes["SLO"] else {
                Issue.record("no Single Logout for an MVPD that has one: \(outcomes)")
                return
            }
            let request = try #require(try await repository.sessionStore.logoutRequest(id: requestID))
            #expect(request.mvpdId == "SLO" && request.nameId == "name-SLO" && request.sessionIndex == "index-SLO")
            #expect(request.redirectUrl == "adobepass://ios.app" && request.expiresAt == Self.now + 600_000)
            let device = Self.device
            #expect(try await repository.profileStore.profiles(requestor: device.requestor, client: device.client, device: device.device).isEmpty)
            #expect(
                try await repository.legacyStore.legacyAuthorization(
                    requestor: device.requestor, client: device.client, device: device.device, resource: "news") == nil)
            #expect(await Self.askedMVPD(authorizations, "SLO"), "an answer kept for an ended sign-in was used")
            #expect(await Self.askedMVPD(authorizations, "Plain"), "an answer kept for an ended sign-in was used")
        }
    }

    @Test func signingOutOfOneMVPDKeepsTheOtherSignIn() async throws {
        try await Self.withSignedInDevice { repository, authorizations, logout in
            _ = await Self.askedMVPD(authorizations, "SLO")
            let outcomes = try await logout.signOut(Self.device, mvpds: [Self.mvpd("Plain", singleLogout: false)])
            #expect(outcomes == ["Plain": .complete])
            let device = Self.device
            let left = try await repository.profileStore.profiles(requestor: device.requestor, client: device.client, device: device.device)
            #expect(left.map(\.mvpdId) == ["SLO"])
            #expect(await Self.askedMVPD(authorizations, "SLO") == false, "the other sign-in's kept answer was dropped")
        }
    }

    @Test func aTokenOfAnOlderSignInDoesNotEndANewerOne() async throws {
        try await Self.withSignedInDevice { repository, _, logout in
            let outcomes = try await logout.signOut(
                Self.device, mvpds: [Self.mvpd("SLO", singleLogout: true)], onlySignInFrom: Self.now - 5000)
            #expect(outcomes == ["SLO": .complete])
            let device = Self.device
            #expect(
                try await repository.profileStore.profile(requestor: device.requestor, client: device.client, device: device.device, mvpd: "SLO")
                    != nil)
            // The AuthZ tokens go whatever the sign-in: the client that held the token is signing out.
            #expect(
                try await repository.legacyStore.legacyAuthorization(
                    requestor: device.requestor, client: device.client, device: device.device, resource: "news") == nil)
        }
    }

    @Test func aPlatformSignInAsksTheAppToSignOutOfThePlatformAndNoSingleLogoutIsSent() async throws {
        try await Self.withSignedInDevice { repository, _, logout in
            try await repository.profileStore.upsertProfile(Self.profile("SLO", type: .appleSSO))
            let outcomes = try await logout.signOut(Self.device, mvpds: [Self.mvpd("SLO", singleLogout: true)])
            #expect(outcomes == ["SLO": .partnerLogout])
        }
    }

    @Test func aDeviceThatIsNotSignedInHasNothingToEnd() async throws {
        try await Self.withSignedInDevice { _, _, logout in
            let stranger = Logout.Device(requestor: "REF", client: "client-1", device: "other")
            let everything = try await logout.signOut(stranger)
            #expect(everything.isEmpty)
            let one = try await logout.signOut(stranger, mvpds: [Self.mvpd("SLO", singleLogout: true)])
            #expect(one == ["SLO": .complete])
        }
    }
}
