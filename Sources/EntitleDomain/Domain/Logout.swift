import EntitleCore
import EntitleModel
import SAML

/// Signing a device out: one action for REST v2 (`GET {sp}/logout`), REST v1 (`DELETE /api/v1/logout`) and the
/// adobe-services protocol (`GET /adobe-services/logout` with a token), with the same side effects whichever protocol
/// asks. For each MVPD signed out it forgets the device's profile, drops the MVPD answers kept for that sign-in (so no
/// instance authorizes from them), forgets the device's REST v1 / adobe-services AuthZ tokens, and, when the sign-in
/// was made at an MVPD with SAML Single Logout, records the LogoutRequest the browser leg
/// `/adobe-services/logout?request_id=…` sends. What the app does next is in each ``Outcome``. A sign-in the identity
/// provider ends (``endByIdentityProvider(_:reason:)``) is forgotten the same way and recorded as ended.
package struct Logout: Sendable {
    /// The device whose sign-ins end.
    package struct Device: Sendable, Equatable {
        package var requestor: String
        package var client: String
        package var device: String

        package init(requestor: String, client: String, device: String) {
            self.requestor = requestor
            self.client = client
            self.device = device
        }
    }

    /// What follows the sign-out of one MVPD.
    package enum Outcome: Sendable, Equatable {
        /// Nothing: the sign-in is over (none was there, or the MVPD has no Single Logout).
        case complete
        /// The sign-in came from the platform's single sign-on: the app signs out of the platform's account too.
        case partnerLogout
        /// The MVPD ends its own session too: the browser goes to `/adobe-services/logout?request_id=` with this id.
        case singleLogout(requestID: String)
    }

    private let catalog: any CatalogReading
    private let profiles: any ProfileStoring
    private let legacy: any LegacyStoring
    private let sessions: any SignInSessionStoring
    private let authorizations: AuthorizationCache
    private let logoutRequestLifetime: Int64
    private let clock: any ServiceClock

    /// Creates the action; `logoutRequestLifetime` (ms) bounds how long a Single Logout leg may take.
    package init(
        catalog: any CatalogReading, profiles: any ProfileStoring, legacy: any LegacyStoring, sessions: any SignInSessionStoring,
        authorizations: AuthorizationCache, logoutRequestLifetime: Int64, clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.profiles = profiles
        self.legacy = legacy
        self.sessions = sessions
        self.authorizations = authorizations
        self.logoutRequestLifetime = logoutRequestLifetime
        self.clock = clock
    }

    /// Signs `device` out of `mvpds` (every MVPD it is signed in with when nil). `redirectURL` is where the browser goes
    /// after a Single Logout (already checked against the app's registered URIs). `onlySignInFrom`, when set, ends a
    /// sign-in only if it is the one made at that time (a token of an older sign-in does not end a newer one).
    package func signOut(
        _ device: Device, mvpds requested: [MVPDRecord]? = nil, redirectURL: String? = nil, onlySignInFrom notBefore: Int64? = nil
    ) async throws -> [String: Outcome] {
        let mvpds: [MVPDRecord]
        if let requested {
            mvpds = requested
        } else {
            var signedIn: [MVPDRecord] = []
            for profile in try await profiles.profiles(requestor: device.requestor, client: device.client, device: device.device) {
                if let mvpd = try await catalog.mvpd(id: profile.mvpdId) { signedIn.append(mvpd) }
            }
            mvpds = signedIn
        }
        var outcomes: [String: Outcome] = [:]
        for mvpd in mvpds {
            outcomes[mvpd.id] = try await signOut(device, mvpd: mvpd, redirectURL: redirectURL, onlySignInFrom: notBefore)
        }
        // The REST v1 and adobe-services AuthZ tokens of the device were made from the sign-ins just ended.
        try await legacy.deleteLegacyAuthorizations(requestor: device.requestor, client: device.client, device: device.device)
        return outcomes
    }

    /// Ends a sign-in that its identity provider ended, not the device (an OAuth 2.0 MVPD refused its refresh token):
    /// the same forgetting as a sign-out (profile, kept MVPD answers, the device's REST v1 / adobe-services AuthZ tokens;
    /// no Single Logout, the MVPD already ended its session), and a record of the ended sign-in, so that the device's
    /// next call with it is answered "invalidated" (``ProfileChecks``) until the device signs in again with the MVPD or
    /// the sign-in would have expired. Nothing happens when `profile` is no longer the device's sign-in with the MVPD
    /// (ended already, or replaced by a newer one). A logout the device asks for is not recorded: the device knows.
    package func endByIdentityProvider(_ profile: ProfileRecord, reason: String) async throws {
        guard
            let removed = try await forgetSignIn(
                requestor: profile.requestorId, client: profile.clientId, device: profile.deviceId, mvpd: profile.mvpdId,
                onlySignInFrom: profile.notBefore)
        else { return }
        try await legacy.deleteLegacyAuthorizations(requestor: removed.requestorId, client: removed.clientId, device: removed.deviceId)
        let now = clock.nowMilliseconds()
        guard removed.notAfter > now else { return }
        try await profiles.recordEndedSignIn(
            EndedSignInRecord(
                requestorId: removed.requestorId, clientId: removed.clientId, deviceId: removed.deviceId, mvpdId: removed.mvpdId,
                userId: removed.userId, reason: reason, endedAt: now, expiresAt: removed.notAfter))
    }

    private func signOut(_ device: Device, mvpd: MVPDRecord, redirectURL: String?, onlySignInFrom notBefore: Int64?) async throws -> Outcome {
        guard
            let removed = try await forgetSignIn(
                requestor: device.requestor, client: device.client, device: device.device, mvpd: mvpd.id, onlySignInFrom: notBefore)
        else { return .complete }
        if removed.type == .appleSSO { return .partnerLogout }
        guard removed.type == .regular, let sloURL = mvpd.sloUrl, !sloURL.isEmpty else { return .complete }
        let now = clock.nowMilliseconds()
        let record = LogoutRequestRecord(
            requestId: AuthnRequest.newID(), mvpdId: mvpd.id, redirectUrl: redirectURL, nameId: removed.nameId,
            sessionIndex: removed.sessionIndex, createdAt: now, expiresAt: now + logoutRequestLifetime)
        try await sessions.insertLogoutRequest(record)
        return .singleLogout(requestID: record.requestId)
    }

    /// Deletes the device's profile with `mvpd` (only the sign-in made at `notBefore`, when given) and drops the MVPD
    /// answers kept for it; returns the deleted profile, or nil when there was none to delete.
    private func forgetSignIn(requestor: String, client: String, device: String, mvpd: String, onlySignInFrom notBefore: Int64?) async throws
        -> ProfileRecord?
    {
        if let notBefore {
            let current = try await profiles.profile(requestor: requestor, client: client, device: device, mvpd: mvpd)
            guard current?.notBefore == notBefore else { return nil }
        }
        guard let removed = try await profiles.deleteProfile(requestor: requestor, client: client, device: device, mvpd: mvpd) else { return nil }
        authorizations.drop(requestor: removed.requestorId, mvpd: mvpd, userID: removed.userId)
        return removed
    }
}
