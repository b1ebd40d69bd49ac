import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import SAML

/// Logout on REST v2: `GET {sp}/logout[/{mvpd}]` forgets the device's profiles; for MVPDs with Single Logout the answer
/// sends the browser on the leg `/adobe-services/logout` → MVPD → `/sp/saml/LogoutServiceHTTPRedirectResponse`
/// (``SAMLServiceProviderController``) → redirect URL.
package struct LogoutController {
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// The sign-out itself.
    package let logout: Logout
    package let sessions: AuthenticationSessions
    package let configuration: ServiceConfiguration
    /// Single sign-on by platform identity and service token.
    package let singleSignOn: TokenSingleSignOn

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("logout/:mvpd") { request, context in
            let caller = context.caller
            let mvpd = try await catalog.requireIntegratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            return try await logout(caller: caller, mvpds: [mvpd], request: request, context: context)
        }
        group.get("logout") { request, context in
            try await logout(caller: context.caller, mvpds: nil, request: request, context: context)
        }
    }

    /// Signs the caller out of `mvpds` (all its sign-ins when nil) and says, per MVPD, what the app does next.
    package func logout(caller: CallerIdentity, mvpds: [MVPDRecord]?, request: Request, context: CallerContext) async throws -> LogoutsResponse {
        let redirectURL = try sessions.validatedRedirectURL(FormBody.query(of: request)["redirectUrl"].nonEmpty, caller: caller)
        let device = Logout.Device(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
        let outcomes = try await logout.signOut(device, mvpds: mvpds, redirectURL: redirectURL)
        var logouts: [String: LogoutAction] = [:]
        let tokens = SingleSignOnTokens(request.headers)
        if !tokens.isEmpty {
            // Single sign-on: the sign-ins shared under the request's SSO identity end too (Adobe's single logout flow).
            let identities = await singleSignOn.identities(tokens, requestor: caller.requestor.id, logger: context.logger)
            for mvpd in try await singleSignOn.signOut(identities, mvpds: mvpds.map { Set($0.map(\.id)) }) where outcomes[mvpd] == nil {
                logouts[mvpd] = LogoutAction(actionName: .complete, actionType: .none, mvpd: mvpd)
            }
        }
        for (mvpd, outcome) in outcomes {
            switch outcome {
            case .complete:
                logouts[mvpd] = LogoutAction(actionName: .complete, actionType: .none, mvpd: mvpd)
            case .partnerLogout:
                logouts[mvpd] = LogoutAction(actionName: .partnerLogout, actionType: .partnerInteractive, mvpd: mvpd)
            case .singleLogout(let requestID):
                let url =
                    configuration.publicBaseURL + "/adobe-services/logout?"
                    + FormURLEncoding.encode([
                        ("noflash", "true"), ("mso_id", mvpd), ("requestor_id", caller.requestor.id), ("request_id", requestID),
                        ("redirect_url", redirectURL ?? ""),
                    ])
                logouts[mvpd] = LogoutAction(actionName: .logout, actionType: .interactive, mvpd: mvpd, url: url)
            }
        }
        return LogoutsResponse(logouts: logouts)
    }

    package init(
        catalog: any CatalogReading, logout: Logout, sessions: AuthenticationSessions, configuration: ServiceConfiguration,
        singleSignOn: TokenSingleSignOn
    ) {
        self.singleSignOn = singleSignOn
        self.catalog = catalog
        self.logout = logout
        self.sessions = sessions
        self.configuration = configuration
    }
}
