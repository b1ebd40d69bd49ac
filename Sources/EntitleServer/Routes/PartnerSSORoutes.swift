import EntitleCore
import Foundation
import HTTPTypes
import Hummingbird
import SAML

extension HTTPField.Name {
    /// `AP-Partner-Framework-Status`.
    static let partnerFrameworkStatus = Self("AP-Partner-Framework-Status")!
}

/// Apple partner single sign-on: `POST /api/v2/{sp}/sessions/sso/Apple` answers `partner_profile` with a SAML
/// AuthnRequest for the platform to relay to the MVPD; `POST /api/v2/{sp}/profiles/sso/Apple` takes the MVPD's signed
/// SAML Response that the platform relayed back and creates an `appleSSO` profile.
extension EntitleService {
    /// The attributes asked of the MVPD through the platform.
    static let partnerAttributeNames = ["userID", "householdID", "zip", "maxRating", "channelID"]

    func addPartnerSSORoutes(to router: Router<AppContext>) {
        router.post("/api/v2/:sp/sessions/sso/:partner") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            try Self.requireApple(try context.parameters.require("partner"))
            let mvpd = try await self.partnerMVPD(request, requestor: caller.requestor.id)
            let form = try await FormBody.fields(of: request, context: context)
            let redirectURL = try self.validatedRedirectURL(form["redirectUrl"].nonEmpty, caller: caller)
            let domain = try self.validatedDomain(form["domainName"].nonEmpty)
            return JSONCoding.response(try await self.partnerSession(caller: caller, mvpd: mvpd, redirectURL: redirectURL, domain: domain))
        }
        router.post("/api/v2/:sp/profiles/sso/:partner") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            try Self.requireApple(try context.parameters.require("partner"))
            let mvpd = try await self.partnerMVPD(request, requestor: caller.requestor.id)
            let form = try await FormBody.fields(of: request, context: context)
            guard let samlResponse = form["SAMLResponse"], !samlResponse.isEmpty else {
                throw APIError(EnhancedError.invalidSAMLResponse.with(details: "The SAMLResponse form field is missing."))
            }
            return JSONCoding.response(try await self.partnerProfile(caller: caller, mvpd: mvpd, samlResponse: samlResponse), status: .created)
        }
    }

    static func requireApple(_ partner: String) throws {
        guard partner == "Apple" else { throw APIError(.invalidPartner) }
    }

    /// The MVPD named by a valid framework status header, boarded for platform SSO and integrated with the requestor.
    func partnerMVPD(_ request: Request, requestor: String) async throws -> MVPDRecord {
        let header = request.headers[.partnerFrameworkStatus]
        let now = self.now
        let (_, providerID) = try apiCatching { () throws(EnhancedError) in try PartnerFrameworkStatus.validate(header: header, now: now) }
        let candidates = try await repository.mvpds(requestor: requestor)
        guard let mvpd = candidates.first(where: { $0.enablePlatformServices && ($0.platformMappingId ?? $0.id) == providerID }) else {
            throw APIError(.pfsProviderIDMismatch)
        }
        return mvpd
    }

    func partnerSession(caller: CallerIdentity, mvpd: MVPDRecord, redirectURL: String?, domain: String?) async throws -> SessionResponse {
        let sp = caller.requestor.id
        if let profile = try await repository.profile(requestor: sp, client: caller.clientID, device: caller.device.value, mvpd: mvpd.id),
           profile.notAfter > now {
            return SessionResponse(actionName: "authorize", actionType: "direct", reasonType: profile.type == .appleSSO ? "authenticatedSSO" : "authenticated",
                                   url: "/api/v2/\(sp)/decisions/authorize/\(mvpd.id)", sessionId: UUID().uuidString.lowercased(),
                                   mvpd: mvpd.id, serviceProvider: sp)
        }
        guard let ssoURL = mvpd.ssoUrl else { throw APIError(.invalidIntegration) }
        let authnRequest = AuthnRequest(id: AuthnRequest.newID(), issueInstant: clock.now(), issuer: configuration.spEntityID,
                                        destination: ssoURL, assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
                                        forceAuthn: false)
        let now = self.now
        var session = AuthSessionRecord(code: "", sessionId: UUID().uuidString.lowercased(), requestorId: sp, clientId: caller.clientID,
                                        deviceId: caller.device.value, mvpdId: mvpd.id, domainName: domain, redirectUrl: redirectURL,
                                        status: .authenticating, authnRequestId: authnRequest.id, failure: nil, createdAt: now,
                                        notAfter: now + configuration.sessionLifetime)
        var stored = false
        for _ in 0..<5 where !stored {
            session.code = RegistrationCode.make()
            stored = try await repository.insertSession(session)
        }
        guard stored else { throw APIError(.internalServerError) }
        return SessionResponse(
            actionName: "partner_profile", actionType: "direct", reasonType: "none", url: "/api/v2/\(sp)/profiles/sso/Apple",
            code: session.code, sessionId: session.sessionId, mvpd: mvpd.id, serviceProvider: sp,
            notBefore: String(session.createdAt), notAfter: String(session.notAfter),
            authenticationRequest: PartnerAuthenticationRequest(request: Data(authnRequest.xml().utf8).base64EncodedString(),
                                                                attributesNames: Self.partnerAttributeNames))
    }

    func partnerProfile(caller: CallerIdentity, mvpd: MVPDRecord, samlResponse: String) async throws -> ProfilesResponse {
        let consumer = AssertionConsumer(service: self)
        // The response must answer a partner session of this very client and device, for the MVPD of the header.
        let requestID = (try? peekResponse(base64Response: samlResponse))?.inResponseTo
        guard let requestID, let session = try await repository.session(authnRequestID: requestID),
              session.clientId == caller.clientID, session.deviceId == caller.device.value, session.requestorId == caller.requestor.id else {
            throw APIError(EnhancedError.invalidSAMLResponse.with(details: "The SAML response does not answer a partner session of this device."))
        }
        guard session.mvpdId == mvpd.id else { throw APIError(.pfsProviderIDMismatch) }
        let verified: AssertionConsumer.Verified
        do {
            verified = try await consumer.verify(samlResponse: samlResponse, relayState: nil)
        } catch let refusal as AssertionConsumer.Refusal {
            throw APIError(EnhancedError.invalidSAMLResponse.with(details: "The SAML response was refused (\(refusal.reason))."))
        } catch {
            throw APIError(EnhancedError.invalidSAMLResponse.with(details: "The SAML response is not a valid signed response from the MVPD."))
        }
        let profile = try await consumer.storeProfile(verified, type: .appleSSO, issuer: "Apple", extraAttributes: ["tokenSource": ["Apple"]])
        return try await profilesAnswer([profile], requestor: caller.requestor)
    }
}
