import EntitleCore
import Foundation
import Hummingbird
import SAML

/// Logout: `GET /api/v2/{sp}/logout[/{mvpd}]`, then for MVPDs with Single Logout the browser leg
/// `/adobe-services/logout` → MVPD → `/sp/saml/LogoutServiceHTTPRedirectResponse` → redirect URL.
extension EntitleService {
    func addLogoutRoutes(to router: Router<AppContext>) {
        router.get("/api/v2/:sp/logout/:mvpd") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let mvpd = try await self.integratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            return JSONCoding.response(try await self.logout(caller: caller, mvpds: [mvpd], request: request))
        }
        router.get("/api/v2/:sp/logout") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let profiles = try await self.repository.profiles(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
            var mvpds: [MVPDRecord] = []
            for profile in profiles { if let mvpd = try await self.repository.mvpd(id: profile.mvpdId) { mvpds.append(mvpd) } }
            return JSONCoding.response(try await self.logout(caller: caller, mvpds: mvpds, request: request))
        }
        router.get("/adobe-services/logout") { request, _ in try await self.sendLogoutRequest(request) }
        router.get("/sp/saml/LogoutServiceHTTPRedirectResponse") { request, _ in try await self.receiveLogoutResponse(request) }
    }

    func logout(caller: CallerIdentity, mvpds: [MVPDRecord], request: Request) async throws -> LogoutsResponse {
        let redirectURL = try validatedRedirectURL(FormBody.query(of: request)["redirectUrl"].nonEmpty, caller: caller)
        var logouts: [String: LogoutAction] = [:]
        for mvpd in mvpds {
            let removed = try await repository.deleteProfile(requestor: caller.requestor.id, client: caller.clientID,
                                                             device: caller.device.value, mvpd: mvpd.id)
            if let removed { caches.authorizations.drop(requestor: removed.requestorId, mvpd: mvpd.id, userID: removed.userId) }
            if removed?.type == .appleSSO {
                logouts[mvpd.id] = LogoutAction(actionName: "partner_logout", actionType: "partner_interactive", mvpd: mvpd.id)
                continue
            }
            guard let removed, removed.type == .regular, let sloURL = mvpd.sloUrl, !sloURL.isEmpty else {
                logouts[mvpd.id] = LogoutAction(actionName: "complete", actionType: "none", mvpd: mvpd.id)
                continue
            }
            let record = LogoutRequestRecord(requestId: AuthnRequest.newID(), mvpdId: mvpd.id, redirectUrl: redirectURL,
                                             nameId: removed.nameId, sessionIndex: removed.sessionIndex, createdAt: now,
                                             expiresAt: now + configuration.sessionLifetime)
            try await repository.insertLogoutRequest(record)
            let url = configuration.publicBaseURL + "/adobe-services/logout?" + FormBody.encode([
                ("noflash", "true"), ("mso_id", mvpd.id), ("requestor_id", caller.requestor.id), ("request_id", record.requestId),
                ("redirect_url", redirectURL ?? ""),
            ])
            logouts[mvpd.id] = LogoutAction(actionName: "logout", actionType: "interactive", mvpd: mvpd.id, url: url)
        }
        return LogoutsResponse(logouts: logouts)
    }

    func sendLogoutRequest(_ request: Request) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let id = query["request_id"], let record = try await repository.logoutRequest(id: id), record.expiresAt > now,
              let mvpd = try await repository.mvpd(id: record.mvpdId), let sloURL = mvpd.sloUrl else {
            if let answer = try await adobeServicesLogout(query: query) { return answer }
            return HTMLPage.message(title: "Signed out", message: "You are signed out of this app.")
        }
        let logoutRequest = LogoutRequest(id: record.requestId, issueInstant: clock.now(), issuer: configuration.spEntityID,
                                          destination: sloURL, nameID: record.nameId, sessionIndex: record.sessionIndex)
        let signer = try await keys.signingIdentity(purpose: ServiceKeys.Purpose.samlSP)
        return HTMLPage.redirect(to: try logoutRequest.redirectURL(relayState: record.requestId, signer: signer))
    }

    func receiveLogoutResponse(_ request: Request) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let relayState = query["RelayState"], let pending = try await repository.logoutRequest(id: relayState),
              let mvpd = try await repository.mvpd(id: pending.mvpdId) else {
            return HTMLPage.message(title: "Signed out", message: "You are signed out.", status: .ok)
        }
        let certificates = try mvpd.certificates.map { try parseCertificatePEMOrBase64DER($0) }
        guard let response = try? SAML.LogoutResponse.fromRedirect(query: query, verifyWith: certificates),
              response.inResponseTo == pending.requestId,
              try await repository.takeLogoutRequest(id: pending.requestId) != nil else {
            return HTMLPage.message(title: "Sign-out could not be confirmed",
                                    message: "You are signed out of this app, but your TV provider did not confirm the sign-out.",
                                    status: .badRequest)
        }
        if let redirect = pending.redirectUrl { return HTMLPage.redirect(to: redirect) }
        return HTMLPage.message(title: "Signed out", message: "You are signed out of \(mvpd.displayName) in this app.")
    }
}
