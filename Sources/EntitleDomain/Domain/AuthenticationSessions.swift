import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Authentication sessions (registration codes): created and resumed by a device, looked up by code with a guess budget,
/// or skipped when the device is already authenticated, on a TempPass or under an `authn-all` degradation rule.
/// Knows nothing of HTTP.
package struct AuthenticationSessions: Sendable, ClockReading {
    /// The sessions.
    package let sessionStore: any SessionStoring
    /// The guess budget of registration codes.
    package let rateLimits: any RateLimitStoring
    /// The device's profiles (already authenticated: no login page).
    package let profiles: any ProfileStoring
    /// The integration of the MVPD picked.
    package let catalog: any CatalogReading
    /// Purges what expired before a time (ms) in every store (``Repository/purgeExpired(now:)``); now and then a new
    /// session runs it.
    package let purgeExpired: @Sendable (_ now: Int64) async throws -> Void
    package let tempPass: TempPassService
    package let degradation: DegradationService
    package let clock: any ServiceClock
    /// How long a session (and its code) lives, ms.
    package let sessionLifetime: Int64

    package func createSession(caller: CallerIdentity, form: [String: String], tempPassIdentity: String?) async throws -> SessionResponse {
        let sp = caller.requestor.id
        let mvpd = try await form["mvpd"].nonEmpty.asyncMap { try await catalog.requireIntegratedMVPD($0, requestor: sp) }
        let redirectURL = try validatedRedirectURL(form["redirectUrl"].nonEmpty, caller: caller)
        let domain = try validatedDomain(form["domainName"].nonEmpty)
        if let mvpd, let shortcut = try await authenticatedShortcut(caller: caller, mvpd: mvpd, tempPassIdentity: tempPassIdentity) {
            return shortcut
        }
        let now = self.now
        if Int.random(in: 0..<256) == 0 { try await purgeExpired(now) }
        var session = AuthSessionRecord(
            code: "", sessionId: UUID().uuidString.lowercased(), requestorId: sp, clientId: caller.clientID,
            deviceId: caller.device.value, mvpdId: mvpd?.id, domainName: domain, redirectUrl: redirectURL,
            status: .pending, authnRequestId: nil, failure: nil, createdAt: now,
            notAfter: now + sessionLifetime, platform: caller.origin.platform, app: caller.app,
            reportClient: caller.client, appProfile: caller.appProfile, reportVisitor: caller.visitor)
        for _ in 0..<5 {
            session.code = RegistrationCode.make()
            if try await sessionStore.insertSession(session) { return sessionAnswer(session) }
        }
        throw EnhancedError.internalServerError
    }

    package func resumeSession(
        _ session: AuthSessionRecord, caller: CallerIdentity, form: [String: String],
        tempPassIdentity: String?
    ) async throws -> SessionResponse {
        let mvpd = try await form["mvpd"].nonEmpty.asyncMap { try await catalog.requireIntegratedMVPD($0, requestor: caller.requestor.id) }
        let redirectURL = try validatedRedirectURL(form["redirectUrl"].nonEmpty, caller: caller)
        let domain = try validatedDomain(form["domainName"].nonEmpty)
        guard session.status != .authenticated else {
            throw EnhancedError.invalidAuthenticationSession.with(details: "The session is already complete.")
        }
        if let mvpd, session.clientId == caller.clientID, session.deviceId == caller.device.value,
            let shortcut = try await authenticatedShortcut(caller: caller, mvpd: mvpd, tempPassIdentity: tempPassIdentity)
        {
            return shortcut
        }
        try await sessionStore.resumeSession(code: session.code, mvpd: mvpd?.id, domainName: domain, redirectURL: redirectURL)
        guard let updated = try await sessionStore.session(code: session.code) else { throw EnhancedError.invalidCode }
        return sessionAnswer(updated)
    }

    /// A session that exists, belongs to the requestor and has not expired; unknown codes count against the caller's guess budget.
    package func liveSession(code raw: String, requestor: String, bucket: String) async throws -> AuthSessionRecord {
        guard let code = RegistrationCode.normalize(raw), let session = try await sessionStore.session(code: code),
            session.requestorId == requestor, session.notAfter > now
        else {
            try await countFailedCodeLookup(bucket: bucket)
            throw EnhancedError.invalidCode
        }
        return session
    }

    /// Code guessing is limited to 10 failed lookups, refilled at 1 per minute, per device or address.
    package func countFailedCodeLookup(bucket: String) async throws {
        let (allowed, retryAfter) = try await rateLimits.takeToken(
            bucket: "badcode:" + Secrets.sha256Hex(bucket), ratePerSecond: 1.0 / 60,
            burst: 10, now: now)
        if !allowed { throw RetryLater(seconds: retryAfter) }
    }

    package func missingParameters(_ session: AuthSessionRecord) -> [String] {
        var missing: [String] = []
        if session.mvpdId == nil { missing.append("mvpd") }
        if session.redirectUrl == nil { missing.append("redirectUrl") }
        return missing
    }

    package func sessionAnswer(_ session: AuthSessionRecord) -> SessionResponse {
        let missing = missingParameters(session)
        let ready = session.mvpdId != nil
        return SessionResponse(
            actionName: ready ? .authenticate : .resume, actionType: ready ? .interactive : .direct, reasonType: .none,
            url: ready ? "/api/v2/authenticate/\(session.requestorId)/\(session.code)" : "/api/v2/\(session.requestorId)/sessions/\(session.code)",
            missingParameters: missing.isEmpty ? nil : missing, code: session.code, sessionId: session.sessionId,
            mvpd: session.mvpdId, serviceProvider: session.requestorId,
            notBefore: String(session.createdAt), notAfter: String(session.notAfter))
    }

    /// Already authenticated, a TempPass, or an `authn-all` degradation rule: no login page is needed.
    package func authenticatedShortcut(caller: CallerIdentity, mvpd: MVPDRecord, tempPassIdentity: String?) async throws -> SessionResponse? {
        let sp = caller.requestor.id
        let authorizeURL = "/api/v2/\(sp)/decisions/authorize/\(mvpd.id)"
        if mvpd.isTempPass {
            _ = try await tempPass.startTempPass(
                requestor: sp, clientID: caller.clientID, device: caller.device.value, mvpd: mvpd, sessionCode: nil,
                identityHeader: tempPassIdentity)
            return SessionResponse(
                actionName: .authorize, actionType: .direct, reasonType: .temporary, url: authorizeURL,
                sessionId: UUID().uuidString.lowercased(), mvpd: mvpd.id, serviceProvider: sp)
        }
        if let profile = try await profiles.profile(requestor: sp, client: caller.clientID, device: caller.device.value, mvpd: mvpd.id),
            profile.notAfter > now
        {
            return SessionResponse(
                actionName: .authorize, actionType: .direct, reasonType: .authenticated, url: authorizeURL,
                sessionId: UUID().uuidString.lowercased(), mvpd: mvpd.id, serviceProvider: sp)
        }
        if try await degradation.degradedLogin(requestor: sp, clientID: caller.clientID, device: caller.device.value, mvpd: mvpd, sessionCode: nil)
            != nil
        {
            return SessionResponse(
                actionName: .authorize, actionType: .direct, reasonType: .degraded, url: authorizeURL,
                sessionId: UUID().uuidString.lowercased(), mvpd: mvpd.id, serviceProvider: sp)
        }
        return nil
    }

    package func validatedRedirectURL(_ value: String?, caller: CallerIdentity) throws -> String? {
        guard let value else { return nil }
        guard value.count <= 2048 else { throw EnhancedError.invalidRedirectURL }
        // The client's registered redirect URIs are looked up through its registration; the session keeps the
        // normalized target.
        guard let target = RedirectURIPolicy.allowedTarget(value, registered: caller.redirectURIs) else {
            throw EnhancedError.invalidRedirectURL.with(details: "The redirect URL is not registered for this application.")
        }
        return target
    }

    package func validatedDomain(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard value.count <= 253, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }) else {
            throw EnhancedError.invalidRequest.with(details: "domainName is not a domain name.")
        }
        return value
    }

    /// Creates the value from each of its stored properties.
    package init(
        sessionStore: any SessionStoring, rateLimits: any RateLimitStoring, profiles: any ProfileStoring, catalog: any CatalogReading,
        purgeExpired: @escaping @Sendable (_ now: Int64) async throws -> Void, tempPass: TempPassService, degradation: DegradationService,
        clock: any ServiceClock, sessionLifetime: Int64
    ) {
        self.sessionStore = sessionStore
        self.rateLimits = rateLimits
        self.profiles = profiles
        self.catalog = catalog
        self.purgeExpired = purgeExpired
        self.tempPass = tempPass
        self.degradation = degradation
        self.clock = clock
        self.sessionLifetime = sessionLifetime
    }
}
