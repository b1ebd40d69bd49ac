import EntitleCore
import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// `AP-Partner-Framework-Status`.
    package static let partnerFrameworkStatus = Self("AP-Partner-Framework-Status")!
}

/// Apple partner single sign-on on REST v2: `POST {sp}/sessions/sso/{partner}` and `POST {sp}/profiles/sso/{partner}`.
package struct PartnerSSOController {
    package let partnerSSO: PartnerSingleSignOn
    package let sessions: AuthenticationSessions

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.post("sessions/sso/:partner") { request, context in
            let caller = context.caller
            try PartnerSingleSignOn.requireApple(try context.parameters.require("partner"))
            let mvpd = try await partnerSSO.partnerMVPD(frameworkStatus: request.headers[.partnerFrameworkStatus], requestor: caller.requestor.id)
            let form = try await FormBody.fields(of: request, context: context)
            let redirectURL = try sessions.validatedRedirectURL(form["redirectUrl"].nonEmpty, caller: caller)
            let domain = try sessions.validatedDomain(form["domainName"].nonEmpty)
            return try await partnerSSO.partnerSession(caller: caller, mvpd: mvpd, redirectURL: redirectURL, domain: domain)
        }
        group.post("profiles/sso/:partner") { request, context in
            let caller = context.caller
            try PartnerSingleSignOn.requireApple(try context.parameters.require("partner"))
            let mvpd = try await partnerSSO.partnerMVPD(frameworkStatus: request.headers[.partnerFrameworkStatus], requestor: caller.requestor.id)
            let form = try await FormBody.fields(of: request, context: context)
            guard let samlResponse = form["SAMLResponse"], !samlResponse.isEmpty else {
                throw APIError(EnhancedError.invalidSAMLResponse.with(details: "The SAMLResponse form field is missing."))
            }
            return EditedResponse(
                status: .created, response: try await partnerSSO.partnerProfile(caller: caller, mvpd: mvpd, samlResponse: samlResponse))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(partnerSSO: PartnerSingleSignOn, sessions: AuthenticationSessions) {
        self.partnerSSO = partnerSSO
        self.sessions = sessions
    }
}
