import EntitleCore
import Foundation
import SAML

/// Checks a SAML Response posted to the Assertion Consumer Service and turns it into a profile.
/// Nothing in the response is trusted before the validator has verified its signature with the MVPD's certificate;
/// the only field read before that is `InResponseTo`, used to find which session (and so which MVPD) to check against.
struct AssertionConsumer {
    let service: EntitleService

    enum Outcome: Equatable {
        case authenticated(redirect: String)
        case failedWithRedirect(redirect: String)
        case rejected(reason: String)
    }

    func consume(samlResponse: String, relayState: String?) async -> Outcome {
        do {
            return try await consumeThrowing(samlResponse: samlResponse, relayState: relayState)
        } catch let error as SAMLError {
            return .rejected(reason: error.code)
        } catch {
            service.logger.error("assertion consumer failure", metadata: ["error.type": "\(type(of: error))"])
            return .rejected(reason: "internal")
        }
    }

    private func consumeThrowing(samlResponse: String, relayState: String?) async throws -> Outcome {
        let repository = service.repository
        let peek = try peekResponse(base64Response: samlResponse)
        guard let requestID = peek.inResponseTo else { return .rejected(reason: "unsolicited") }
        guard let session = try await repository.session(authnRequestID: requestID) else { return .rejected(reason: "unknown_request") }
        guard session.status == "authenticating" else { return .rejected(reason: "replayed") }
        guard session.notAfter > service.now else { return .rejected(reason: "session_expired") }
        if let relayState, !relayState.isEmpty, relayState != session.code { return .rejected(reason: "relay_state_mismatch") }
        guard let mvpdID = session.mvpdId, let mvpd = try await repository.mvpd(id: mvpdID), let entityID = mvpd.entityId else {
            return .rejected(reason: "unknown_mvpd")
        }
        let certificates = try mvpd.certificateList.map { try parseCertificatePEMOrBase64DER($0) }
        let validator = SAMLResponseValidator(idpEntityID: entityID, idpCertificates: certificates,
                                              spEntityID: service.configuration.spEntityID,
                                              assertionConsumerServiceURL: service.configuration.assertionConsumerServiceURL,
                                              clockSkew: service.configuration.samlClockSkew)
        let assertion: ValidatedAssertion
        do {
            assertion = try validator.validate(base64Response: samlResponse, expectedInResponseTo: requestID, now: service.clock.now())
        } catch let error as SAMLError where error.code == SAMLError.statusNotSuccess {
            try await repository.failAuthentication(code: session.code, reason: "mvpd_declined")
            service.metrics.recordAuthentication(mvpd: mvpd.id, outcome: "declined")
            guard let redirect = session.redirectUrl else { return .rejected(reason: "mvpd_declined") }
            return .failedWithRedirect(redirect: redirect + (redirect.contains("?") ? "&" : "?") + "error=authentication_failed")
        }
        let expiry = Int64(assertion.notOnOrAfter.timeIntervalSince1970 * 1000) + Int64(service.configuration.samlClockSkew * 1000)
        guard try await repository.useAssertion(key: assertion.issuer + "|" + assertion.assertionID, expiresAt: expiry) else {
            return .rejected(reason: "assertion_replayed")
        }
        guard try await repository.completeAuthentication(authnRequestID: requestID) else { return .rejected(reason: "replayed") }
        let now = service.now
        var notAfter = now + mvpd.profileTtlSeconds * 1000
        if let sessionEnd = assertion.sessionNotOnOrAfter {
            notAfter = min(notAfter, Int64(sessionEnd.timeIntervalSince1970 * 1000))
        }
        let userID = assertion.attributes["userID"]?.first ?? assertion.nameID
        try await repository.upsertProfile(ProfileRecord(
            requestorId: session.requestorId, clientId: session.clientId, deviceId: session.deviceId, mvpdId: mvpd.id,
            type: "regular", issuer: mvpd.id, notBefore: now, notAfter: notAfter, attributes: JSONText.encode(assertion.attributes),
            nameId: assertion.nameID, sessionIndex: assertion.sessionIndex, sessionCode: session.code, userId: userID))
        service.metrics.recordAuthentication(mvpd: mvpd.id, outcome: "success")
        return .authenticated(redirect: session.redirectUrl ?? service.configuration.authenticatedPageURL)
    }
}
