import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging
import SAML

/// Checks a SAML Response from an MVPD and turns it into a profile — posted by the browser to the Assertion Consumer
/// Service, or relayed by the platform in partner single sign-on. Nothing in the response is trusted before the validator
/// has verified its signature with the MVPD's certificate; the only field read before that is `InResponseTo`, used to find
/// which session (and so which MVPD) to check against.
package struct AssertionConsumer: Sendable, ClockReading {
    /// Authentication sessions.
    package let sessions: SessionStore
    /// Catalog reads.
    package let catalog: CatalogStore
    /// Per-MVPD options.
    package let mvpdOptions: MVPDOptionsStore
    /// Profiles.
    package let profiles: ProfileStore
    package let configuration: ServiceConfiguration
    package let authorizations: AuthorizationCache
    package let metrics: ServiceMetrics
    package let clock: any ServiceClock
    /// For failures that are not the caller's.
    package let logger: Logger

    package enum Outcome: Equatable {
        case authenticated(redirect: String)
        case failedWithRedirect(redirect: String)
        case rejected(reason: String)
    }

    /// A response that passed every check, with the session it completes.
    package struct Verified {
        package let session: AuthSessionRecord
        package let mvpd: MVPDRecord
        package let assertion: ValidatedAssertion
        package let options: MVPDSAMLOptionsRecord?

        /// Creates the value from each of its stored properties.
        package init(session: AuthSessionRecord, mvpd: MVPDRecord, assertion: ValidatedAssertion, options: MVPDSAMLOptionsRecord?) {
            self.session = session
            self.mvpd = mvpd
            self.assertion = assertion
            self.options = options
        }
    }

    /// Why a response was refused.
    package struct Refusal: Error {
        package let reason: String
        /// The MVPD answered with a signed non-success status (for example the user cancelled).
        package var declined = false

        /// Creates the value from each of its stored properties.
        package init(reason: String, declined: Bool = false) {
            self.reason = reason
            self.declined = declined
        }
    }

    /// The browser leg: verify, store the profile, send the user agent to the session's redirect URL.
    package func consume(samlResponse: String, relayState: String?) async -> Outcome {
        do {
            let verified = try await verify(samlResponse: samlResponse, relayState: relayState)
            try await storeProfile(verified, type: .regular, issuer: verified.mvpd.id, extraAttributes: [:])
            return .authenticated(redirect: verified.session.redirectUrl ?? configuration.authenticatedPageURL)
        } catch let refusal as Refusal {
            await countFailure(samlResponse)
            if refusal.declined, let session = try? await sessionFor(samlResponse), let redirect = session.redirectUrl {
                return .failedWithRedirect(redirect: redirect + (redirect.contains("?") ? "&" : "?") + "error=authentication_failed")
            }
            return .rejected(reason: refusal.reason)
        } catch let error as SAMLError {
            await countFailure(samlResponse)
            return .rejected(reason: error.code.rawValue)
        } catch {
            logger.error("assertion consumer failure", metadata: ["error.type": "\(type(of: error))"])
            return .rejected(reason: "internal")
        }
    }

    /// Counts a refused answer as a failed sign-in of the session it answers (an answer to no known session, which
    /// never was a sign-in here, is not counted).
    private func countFailure(_ samlResponse: String) async {
        guard let session = try? await sessionFor(samlResponse), let mvpd = session.mvpdId, session.status != .authenticated else { return }
        metrics.recordSignIn(
            .failure, key: ReportKey(session: session, mvpd: mvpd), reason: EnhancedError.Code.invalidParameterSAMLResponse.rawValue,
            visitor: session.reportVisitor, at: now)
    }

    private func sessionFor(_ samlResponse: String) async throws -> AuthSessionRecord? {
        guard let requestID = try peekResponse(base64Response: samlResponse).inResponseTo else { return nil }
        return try await sessions.session(authnRequestID: requestID)
    }

    /// Every check, then atomically marks the session complete (a second use of the same response is refused).
    package func verify(samlResponse: String, relayState: String?) async throws -> Verified {
        let peek = try peekResponse(base64Response: samlResponse)
        guard let requestID = peek.inResponseTo else { throw Refusal(reason: "unsolicited") }
        guard let session = try await sessions.session(authnRequestID: requestID) else { throw Refusal(reason: "unknown_request") }
        // A failure status is not signature-checked, so a "failed" session may still be completed by a genuine answer.
        guard session.status == .authenticating || session.status == .failed else { throw Refusal(reason: "replayed") }
        guard session.notAfter > now else { throw Refusal(reason: "session_expired") }
        if let relayState, !relayState.isEmpty, relayState != session.code { throw Refusal(reason: "relay_state_mismatch") }
        guard let mvpdID = session.mvpdId, let mvpd = try await catalog.mvpd(id: mvpdID), let entityID = mvpd.entityId else {
            throw Refusal(reason: "unknown_mvpd")
        }
        let certificates = try mvpd.certificates.map { try parseCertificatePEMOrBase64DER($0) }
        // A proxied MVPD's answer comes from its proxy: the proxy's options, the proxied MVPD's entity id as Issuer.
        let options = try await mvpdOptions.samlOptions(mvpd: mvpd.settingsMVPDId)
        var validator = SAMLResponseValidator(
            idpEntityID: entityID, idpCertificates: certificates,
            spEntityID: configuration.spEntityID,
            assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
            clockSkew: configuration.samlClockSkew)
        validator.allowRSASHA1 = options?.allowRSASHA1 == true
        let assertion: ValidatedAssertion
        do {
            assertion = try validator.validate(base64Response: samlResponse, expectedInResponseTo: requestID, now: clock.now())
        } catch let error as SAMLError where error.code == .statusNotSuccess {
            try await sessions.failAuthentication(code: session.code, reason: "mvpd_declined")
            metrics.recordAuthentication(mvpd: mvpd.id, outcome: "declined")
            throw Refusal(reason: "mvpd_declined", declined: true)
        }
        if assertion.signedWithSHA1 {
            logger.warning("accepted a SAML response signed with SHA-1 (enabled for this MVPD)", metadata: ["mvpd": "\(mvpd.id.logEscaped)"])
        }
        let expiry = Int64(assertion.notOnOrAfter.timeIntervalSince1970 * 1000) + Int64(configuration.samlClockSkew * 1000)
        guard try await sessions.useAssertion(key: assertion.issuer + "|" + assertion.assertionID, expiresAt: expiry) else {
            throw Refusal(reason: "assertion_replayed")
        }
        guard try await sessions.completeAuthentication(authnRequestID: requestID) else { throw Refusal(reason: "replayed") }
        return Verified(session: session, mvpd: mvpd, assertion: assertion, options: options)
    }

    /// Stores the profile of a verified response for the session's client and device.
    @discardableResult
    package func storeProfile(_ verified: Verified, type: ProfileType, issuer: String, extraAttributes: [String: [String]]) async throws
        -> ProfileRecord
    {
        let now = self.now
        let assertion = verified.assertion, session = verified.session
        let mapping = SAMLAttributeMapping(verified.options?.attributeMapping ?? [:])
        // Preflight by lineup: the lineup attribute is kept with the profile (replacing the previous sign-in's; absent:
        // no lineup) and is not user metadata.
        let lineupAttribute = try await mvpdOptions.preflightLineupAttribute(requestor: session.requestorId, mvpd: verified.mvpd.id)
        let lineup = lineupAttribute.flatMap { assertion.attributes[$0] }.map { ChannelLineup(resources: $0) }
        let metadata = mapping.grouped(
            mapping.map(
                assertion.attributes.filter { !$0.value.isEmpty && $0.key != lineupAttribute }, nameID: [assertion.nameID]
            ).mapValues { $0.count == 1 ? JSONValue.string($0[0]) : .array($0.map(JSONValue.string)) })
        let lifetime = try await HomeBasedSignIns.lifetimeSeconds(
            requestor: session.requestorId, mvpd: verified.mvpd, homeBased: HomeBasedSignIns.isHomeBased(metadata), catalog: catalog,
            options: mvpdOptions)
        var notAfter = now + lifetime * 1000
        if let sessionEnd = assertion.sessionNotOnOrAfter {
            notAfter = min(notAfter, Int64(sessionEnd.timeIntervalSince1970 * 1000))
        }
        let userID: String
        switch metadata["userID"] {
        case .string(let text)?: userID = text
        case .array(let values)?: userID = values.first?.stringValue ?? assertion.nameID
        default: userID = assertion.nameID
        }
        let profile = ProfileRecord(
            requestorId: session.requestorId, clientId: session.clientId, deviceId: session.deviceId, mvpdId: verified.mvpd.id,
            type: type, issuer: issuer, notBefore: now, notAfter: notAfter,
            attributes: JSONText.encode(UserMetadataEncoder.stored(metadata).merging(extraAttributes) { $1 }),
            nameId: assertion.nameID, sessionIndex: assertion.sessionIndex, sessionCode: session.code, userId: userID,
            lineup: lineup?.stored)
        try await profiles.upsertProfile(profile)
        authorizations.drop(requestor: profile.requestorId, mvpd: profile.mvpdId, userID: profile.userId)
        metrics.recordAuthentication(mvpd: verified.mvpd.id, outcome: "success")
        metrics.recordSignIn(
            .success, key: ReportKey(session: session, mvpd: verified.mvpd.id), profile: profile, visitor: session.reportVisitor, at: now)
        return profile
    }
}
