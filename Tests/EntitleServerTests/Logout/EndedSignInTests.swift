import EntitleCore
import Foundation
@testable import EntitleDomain
import EntitleModel
@testable import EntitleStorage
import Testing

/// A sign-in the identity provider ends (``Logout/endByIdentityProvider(_:reason:)``), on a migrated database of each
/// engine and a manual clock: forgotten as a sign-out forgets it, recorded, answered "invalidated" by ``ProfileChecks``
/// where the protocol asks for it, and forgotten again at the next sign-in, at its own expiry and at a privacy erase.
@Suite struct EndedSignInTests {
    static let device = LogoutTests.device
    static let now = LogoutTests.now
    static let invalidated = ProfileChecks.Failures(
        missing: .authenticatedProfileMissing, expired: .authenticatedProfileExpired, invalidated: { .authorizationDeniedBySessionInvalidated })
    static let plain = ProfileChecks.Failures(missing: .authenticatedProfileMissing, expired: .authenticatedProfileExpired)

    /// The device signed in with `SLO` and `Plain` (``LogoutTests/withSignedInDevice(_:)``), the checks on the same clock.
    static func withDevice(_ body: (Repository, Logout, ProfileChecks, ManualClock) async throws -> Void) async throws {
        try await ScratchEngines.withEach { engine in
            let repository = Repository(sql: engine.sql)
            for mvpd in [LogoutTests.mvpd("SLO", singleLogout: true), LogoutTests.mvpd("Plain", singleLogout: false)] {
                try await repository.catalogStore.upsertMVPD(mvpd)
                try await repository.profileStore.upsertProfile(LogoutTests.profile(mvpd.id))
            }
            try await repository.legacyStore.upsertLegacyAuthorization(
                LegacyAuthorizationRecord(
                    requestorId: device.requestor, clientId: device.client, deviceId: device.device, resource: "news", mvpdId: "Plain",
                    notBefore: now - 1000, notAfter: now + 60_000))
            let clock = ManualClock(Date(timeIntervalSince1970: Double(now) / 1000))
            let logout = Logout(
                catalog: repository.catalogStore, profiles: repository.profileStore, legacy: repository.legacyStore,
                sessions: repository.sessionStore,
                authorizations: AuthorizationCache(), logoutRequestLifetime: 600_000, clock: clock)
            try await body(repository, logout, ProfileChecks(profiles: repository.profileStore, clock: clock), clock)
        }
    }

    /// The code `checks` throws for the device's profile with `mvpd` (nil: no error).
    static func failure(_ checks: ProfileChecks, mvpd: String, device: String = device.device, _ failures: ProfileChecks.Failures) async
        -> String?
    {
        do {
            _ = try await checks.profile(requestor: Self.device.requestor, client: Self.device.client, device: device, mvpd: mvpd, failures: failures)
            return nil
        } catch let error as APIError {
            return error.body.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test func aSignInTheProviderEndedIsForgottenRecordedAndAnsweredInvalidatedWhereAsked() async throws {
        try await Self.withDevice { repository, logout, checks, _ in
            let device = Self.device
            try await logout.endByIdentityProvider(LogoutTests.profile("Plain"), reason: EndedSignInRecord.Reason.refreshTokenRevoked)
            #expect(
                try await repository.profileStore.profiles(requestor: device.requestor, client: device.client, device: device.device).map(\.mvpdId)
                    == [
                        "SLO"
                    ])
            #expect(
                try await repository.legacyStore.legacyAuthorization(
                    requestor: device.requestor, client: device.client, device: device.device, resource: "news") == nil)
            let ended = try await repository.profileStore.endedSignIns(
                requestor: device.requestor, client: device.client, device: device.device, now: Self.now)
            #expect(ended.map(\.mvpdId) == ["Plain"])
            #expect(ended.first?.userId == "user-Plain" && ended.first?.reason == "refresh_token_revoked")
            #expect(ended.first?.endedAt == Self.now && ended.first?.expiresAt == Self.now + 3_600_000)

            #expect(await Self.failure(checks, mvpd: "Plain", Self.invalidated) == "authorization_denied_by_session_invalidated")
            // A protocol with no code for it, another MVPD, another device: as before.
            #expect(await Self.failure(checks, mvpd: "Plain", Self.plain) == "authenticated_profile_missing")
            #expect(await Self.failure(checks, mvpd: "SLO", Self.invalidated) == nil)
            #expect(await Self.failure(checks, mvpd: "Plain", device: "device-2", Self.invalidated) == "authenticated_profile_missing")
            // The device's current profile (REST v1): it still has one with SLO; once that is signed out too, the ended
            // sign-in with Plain is what it is told.
            _ = try await logout.signOut(device, mvpds: [LogoutTests.mvpd("SLO", singleLogout: true)])
            do {
                _ = try await checks.currentProfile(
                    requestor: device.requestor, client: device.client, device: device.device, failures: Self.invalidated)
                Issue.record("a device without a profile got one")
            } catch let error as APIError {
                #expect(error.body.code == .authorizationDeniedBySessionInvalidated)
                #expect(error.body.details?.contains("Plain") == true)
                #expect(error.body.action == .authentication && error.body.status == 403)
            }
        }
    }

    @Test func aNewSignInTheExpiryOfTheEndedOneAndAnEraseForgetTheRecord() async throws {
        try await Self.withDevice { repository, logout, checks, clock in
            let device = Self.device
            try await logout.endByIdentityProvider(LogoutTests.profile("Plain"), reason: EndedSignInRecord.Reason.refreshTokenRevoked)
            try await logout.endByIdentityProvider(LogoutTests.profile("SLO"), reason: EndedSignInRecord.Reason.refreshTokenRevoked)
            // A new sign-in with Plain: its record goes; SLO's stays.
            try await repository.profileStore.upsertProfile(LogoutTests.profile("Plain", notBefore: Self.now))
            _ = try await repository.profileStore.deleteProfile(
                requestor: device.requestor, client: device.client, device: device.device, mvpd: "Plain")
            #expect(await Self.failure(checks, mvpd: "Plain", Self.invalidated) == "authenticated_profile_missing")
            #expect(await Self.failure(checks, mvpd: "SLO", Self.invalidated) == "authorization_denied_by_session_invalidated")

            // Past the time the ended sign-in would have expired: not used, then purged.
            clock.advance(by: 3_600)
            #expect(await Self.failure(checks, mvpd: "SLO", Self.invalidated) == "authenticated_profile_missing")
            try await repository.purgeExpired(now: Self.now + 3_600_001)
            let left = try await repository.sql.raw("SELECT COUNT(*) AS n FROM ended_sign_ins").first()?.decode(column: "n", as: Int.self)
            #expect(left == 0)

            // A privacy erase of the device removes its records.
            var later = LogoutTests.profile("Plain", notBefore: Self.now + 3_600_000)
            later.notAfter = Self.now + 7_200_000
            try await repository.profileStore.upsertProfile(later)
            try await logout.endByIdentityProvider(later, reason: EndedSignInRecord.Reason.refreshTokenRevoked)
            let holdings = try await repository.privacy.holdings(PrivacySubject(kind: .device, identifier: device.device))
            #expect(holdings.first { $0.table == "ended_sign_ins" }?.rows.count == 1)
            let byUser = try await repository.privacy.holdings(PrivacySubject(kind: .user, identifier: "user-Plain"))
            #expect(byUser.first { $0.table == "ended_sign_ins" }?.rows.count == 1)
            let erased = try await repository.privacy.erase(PrivacySubject(kind: .device, identifier: device.device))
            #expect(erased.removed["ended_sign_ins"] == 1)
        }
    }

    @Test func anOlderSignInThanTheDevicesCurrentOneIsNotEnded() async throws {
        try await Self.withDevice { repository, logout, _, _ in
            let device = Self.device
            try await logout.endByIdentityProvider(
                LogoutTests.profile("Plain", notBefore: Self.now - 5000), reason: EndedSignInRecord.Reason.refreshTokenRevoked)
            #expect(
                try await repository.profileStore.profile(requestor: device.requestor, client: device.client, device: device.device, mvpd: "Plain")
                    != nil)
            #expect(
                try await repository.profileStore.endedSignIns(
                    requestor: device.requestor, client: device.client, device: device.device, now: Self.now
                )
                .isEmpty)
        }
    }
}
