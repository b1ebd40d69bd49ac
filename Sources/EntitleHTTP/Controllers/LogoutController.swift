import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import SAML

/// Logout on REST v2: `GET {sp}/logout[/{mvpd}]` forgets the device's profiles; for MVPDs with Single Logout the answer
/// sends the browser on the leg `/adobe-services/logout` → MVPD → `/sp/saml/LogoutServiceHTTPRedirectResponse`
/// (``SAMLServiceProviderController``) → redirect URL.
package struct LogoutController: ClockReading {
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Profiles.
    package let profileStore: any ProfileStoring
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    package let authorizations: AuthorizationCache
    package let sessions: AuthenticationSessions
    package let configuration: ServiceConfiguration
    package let clock: any ServiceClock

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("logout/:mvpd") { request, context in
            let caller = context.caller
            let mvpd = try await catalog.requireIntegratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            return try await logout(caller: caller, mvpds: [mvpd], request: request)
        }
        group.get("logout") { request, context in
            let caller = context.caller
            let profiles = try await profileStore.profiles(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
            var mvpds: [MVPDRecord] = []
            for profile in profiles { if let mvpd = try await catalog.mvpd(id: profile.mvpdId) { mvpds.append(mvpd) } }
            return try await logout(caller: caller, mvpds: mvpds, request: request)
        }
    }

    /// Forgets the caller's profiles with `mvpds` and says, per MVPD, what the app does next.
    package func logout(caller: CallerIdentity, mvpds: [MVPDRecord], request: Request) async throws -> LogoutsResponse {
        let redirectURL = try sessions.validatedRedirectURL(FormBody.query(of: request)["redirectUrl"].nonEmpty, caller: caller)
        var logouts: [String: LogoutAction] = [:]
        for mvpd in mvpds {
            let removed = try await profileStore.deleteProfile(
                requestor: caller.requestor.id, client: caller.clientID,
                device: caller.device.value, mvpd: mvpd.id)
            if let removed { authorizations.drop(requestor: removed.requestorId, mvpd: mvpd.id, userID: removed.userId) }
            if removed?.type == .appleSSO {
                logouts[mvpd.id] = LogoutAction(actionName: .partnerLogout, actionType: .partnerInteractive, mvpd: mvpd.id)
                continue
            }
            guard let removed, removed.type == .regular, let sloURL = mvpd.sloUrl, !sloURL.isEmpty else {
                logouts[mvpd.id] = LogoutAction(actionName: .complete, actionType: .none, mvpd: mvpd.id)
                continue
            }
            let record = LogoutRequestRecord(
                requestId: AuthnRequest.newID(), mvpdId: mvpd.id, redirectUrl: redirectURL,
                nameId: removed.nameId, sessionIndex: removed.sessionIndex, createdAt: now,
                expiresAt: now + configuration.sessionLifetime)
            try await sessionStore.insertLogoutRequest(record)
            let url =
                configuration.publicBaseURL + "/adobe-services/logout?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", mvpd.id), ("requestor_id", caller.requestor.id), ("request_id", record.requestId),
                    ("redirect_url", redirectURL ?? ""),
                ])
            logouts[mvpd.id] = LogoutAction(actionName: .logout, actionType: .interactive, mvpd: mvpd.id, url: url)
        }
        return LogoutsResponse(logouts: logouts)
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: any CatalogReading, profileStore: any ProfileStoring, sessionStore: any SignInSessionStoring, authorizations: AuthorizationCache,
        sessions: AuthenticationSessions, configuration: ServiceConfiguration, clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.profileStore = profileStore
        self.sessionStore = sessionStore
        self.authorizations = authorizations
        self.sessions = sessions
        self.configuration = configuration
        self.clock = clock
    }
}
