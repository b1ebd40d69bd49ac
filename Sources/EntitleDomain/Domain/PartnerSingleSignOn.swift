import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import SAML

/// Apple partner single sign-on: a partner session answers `partner_profile` with a SAML AuthnRequest for the platform to
/// relay to the MVPD; a partner profile is made from the MVPD's signed SAML Response that the platform relayed back
/// (an `appleSSO` profile). Used by REST v2 and REST v1. Knows nothing of HTTP.
package struct PartnerSingleSignOn: Sendable, ClockReading {
    /// Catalog reads.
    package let catalog: CatalogStore
    /// Profiles.
    package let profileStore: ProfileStore
    /// Authentication sessions.
    package let sessions: SessionStore
    package let configuration: ServiceConfiguration
    package let assertions: AssertionConsumer
    package let profiles: WireProfiles
    package let clock: any ServiceClock

    /// The attributes asked of the MVPD through the platform.
    package static let partnerAttributeNames = ["userID", "householdID", "zip", "maxRating", "channelID"]

    package static func requireApple(_ partner: String) throws {
        guard partner == "Apple" else { throw EnhancedError.invalidPartner }
    }

    /// The MVPD named by a valid framework status header, boarded for platform SSO and integrated with the requestor.
    package func partnerMVPD(frameworkStatus header: String?, requestor: String) async throws -> MVPDRecord {
        let now = self.now
        let (_, providerID) = try PartnerFrameworkStatus.validate(header: header, now: now)
        let candidates = try await catalog.mvpds(requestor: requestor)
        guard let mvpd = candidates.first(where: { ($0.platformMappingId ?? $0.id) == providerID }) else {
            throw EnhancedError.pfsProviderIDMismatch
        }
        // Integrated with the requestor but not set up for the platform: the operator's configuration, said as such.
        guard mvpd.enablePlatformServices else {
            throw EnhancedError.invalidConfigurationMVPDPlatform.with(details: "\(mvpd.id) has platform services disabled.")
        }
        guard mvpd.boardingStatus.map(BoardingStatus.init(rawValue:)) == .supported else {
            throw EnhancedError.invalidConfigurationMVPDPlatformBoardingStatus.with(
                details: "\(mvpd.id) is boarded as \(mvpd.boardingStatus ?? "none"); single sign-on through the platform needs SUPPORTED.")
        }
        return mvpd
    }

    package func partnerSession(caller: CallerIdentity, mvpd: MVPDRecord, redirectURL: String?, domain: String?) async throws -> SessionResponse {
        let sp = caller.requestor.id
        if let profile = try await profileStore.profile(requestor: sp, client: caller.clientID, device: caller.device.value, mvpd: mvpd.id),
            profile.notAfter > now
        {
            return SessionResponse(
                actionName: .authorize, actionType: .direct, reasonType: profile.type == .appleSSO ? .authenticatedSSO : .authenticated,
                url: "/api/v2/\(sp)/decisions/authorize/\(mvpd.id)", sessionId: UUID().uuidString.lowercased(),
                mvpd: mvpd.id, serviceProvider: sp)
        }
        guard let ssoURL = mvpd.ssoUrl else { throw EnhancedError.invalidIntegration }
        let authnRequest = AuthnRequest(
            id: AuthnRequest.newID(), issueInstant: clock.now(), issuer: configuration.spEntityID,
            destination: ssoURL, assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
            forceAuthn: false)
        let now = self.now
        var session = AuthSessionRecord(
            code: "", sessionId: UUID().uuidString.lowercased(), requestorId: sp, clientId: caller.clientID,
            deviceId: caller.device.value, mvpdId: mvpd.id, domainName: domain, redirectUrl: redirectURL,
            status: .authenticating, authnRequestId: authnRequest.id, failure: nil, createdAt: now,
            notAfter: now + configuration.sessionLifetime, platform: caller.origin.platform, app: caller.app,
            reportClient: caller.client, appProfile: caller.appProfile, reportVisitor: caller.visitor)
        var stored = false
        for _ in 0..<5 where !stored {
            session.code = RegistrationCode.make()
            stored = try await sessions.insertSession(session)
        }
        guard stored else { throw EnhancedError.internalServerError }
        assertions.metrics.recordSignIn(
            .attempt, key: ReportKey(session: session, mvpd: mvpd.id, sso: "apple"), visitor: session.reportVisitor, at: now)
        return SessionResponse(
            actionName: .partnerProfile, actionType: .direct, reasonType: .none, url: "/api/v2/\(sp)/profiles/sso/Apple",
            code: session.code, sessionId: session.sessionId, mvpd: mvpd.id, serviceProvider: sp,
            notBefore: String(session.createdAt), notAfter: String(session.notAfter),
            authenticationRequest: PartnerAuthenticationRequest(
                request: Data(authnRequest.xml().utf8).base64EncodedString(),
                attributesNames: Self.partnerAttributeNames))
    }

    /// Counts a refused answer as a failed sign-in, unless it answers a sign-in already complete (a replay).
    private func countFailure(_ session: AuthSessionRecord) {
        guard session.status != .authenticated, let mvpd = session.mvpdId else { return }
        assertions.metrics.recordSignIn(
            .failure, key: ReportKey(session: session, mvpd: mvpd, sso: "apple"), reason: EnhancedError.Code.invalidParameterSAMLResponse.rawValue,
            visitor: session.reportVisitor, at: now)
    }

    package func partnerProfile(caller: CallerIdentity, mvpd: MVPDRecord, samlResponse: String) async throws -> ProfilesResponse {
        let consumer = assertions
        // The response must answer a partner session of this very client and device, for the MVPD of the header.
        let requestID = (try? peekResponse(base64Response: samlResponse))?.inResponseTo
        guard let requestID, let session = try await sessions.session(authnRequestID: requestID),
            session.clientId == caller.clientID, session.deviceId == caller.device.value, session.requestorId == caller.requestor.id
        else {
            throw EnhancedError.invalidSAMLResponse.with(details: "The SAML response does not answer a partner session of this device.")
        }
        guard session.mvpdId == mvpd.id else { throw EnhancedError.pfsProviderIDMismatch }
        let verified: AssertionConsumer.Verified
        do {
            verified = try await consumer.verify(samlResponse: samlResponse, relayState: nil)
        } catch let refusal as AssertionConsumer.Refusal {
            countFailure(session)
            throw EnhancedError.invalidSAMLResponse.with(details: "The SAML response was refused (\(refusal.reason)).")
        } catch {
            countFailure(session)
            throw EnhancedError.invalidSAMLResponse.with(details: "The SAML response is not a valid signed response from the MVPD.")
        }
        let profile = try await consumer.storeProfile(verified, type: .appleSSO, issuer: "Apple", extraAttributes: ["tokenSource": ["Apple"]])
        return try await profiles.profilesAnswer([profile], requestor: caller.requestor)
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: CatalogStore, profileStore: ProfileStore, sessions: SessionStore, configuration: ServiceConfiguration, assertions: AssertionConsumer,
        profiles: WireProfiles, clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.profileStore = profileStore
        self.sessions = sessions
        self.configuration = configuration
        self.assertions = assertions
        self.profiles = profiles
        self.clock = clock
    }
}
