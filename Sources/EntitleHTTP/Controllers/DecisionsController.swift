import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Decisions: `POST {sp}/decisions/authorize/{mvpd}` and `{sp}/decisions/preauthorize/{mvpd}`.
package struct DecisionsController {
    /// The integration of the path's MVPD.
    package let catalog: any CatalogReading
    package let decisions: DecisionService
    /// The profile lookup, expiry and resource limit shared with REST v1 and adobe-services.
    package let profileChecks: ProfileChecks
    /// Single sign-on by platform identity and service token.
    package let singleSignOn: TokenSingleSignOn

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.post("decisions/authorize/:mvpd") { request, context in
            try await decide(request, context: context, issueTokens: true)
        }
        group.post("decisions/preauthorize/:mvpd") { request, context in
            try await decide(request, context: context, issueTokens: false)
        }
    }

    /// Reads the resources of the body and decides them for the caller's profile with the MVPD of the path.
    package func decide(_ request: Request, context: CallerContext, issueTokens: Bool) async throws -> Response {
        let caller = context.caller
        let mvpd = try await catalog.requireIntegratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
        let text = try await FormBody.text(of: request, context: context, limit: 256 * 1024)
        let resources = try Self.parseResources(text: text, contentType: request.headers.combinedValue(.contentType))
        try profileChecks.checkResourceCount(resources.count, requestor: caller.requestor)
        let profile: ProfileRecord
        do {
            profile = try await profileChecks.profile(
                requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value, mvpd: mvpd.id,
                failures: .init(
                    missing: .authenticatedProfileMissing,
                    expired: mvpd.isTempPass ? .temporaryAccessDurationLimitExceeded : .authenticatedProfileExpired,
                    invalidated: { .authorizationDeniedBySessionInvalidated }))
        } catch let failure as APIError {
            // No sign-in of the device's own: one shared under the request's SSO identity, if any.
            let tokens = SingleSignOnTokens(request.headers)
            guard !tokens.isEmpty, !mvpd.isTempPass else { throw failure }
            let identities = await singleSignOn.identities(tokens, requestor: caller.requestor.id, logger: context.logger)
            guard let shared = try await singleSignOn.sharedProfiles(identities, caller: caller, mvpd: mvpd.id)[mvpd.id] else { throw failure }
            profile = shared.origin
        }
        // `Cache-Control: no-cache` (the SDK's REMOTE_CACHE feature disabled) asks the MVPD again instead of its kept answers.
        let fresh = request.headers.combinedValue(.cacheControl)?.lowercased().contains("no-cache") == true
        let answers = try await decisions.decide(
            resources, requestor: caller.requestor.id, mvpd: mvpd, profile: profile, issueTokens: issueTokens, origin: caller.origin,
            clientIP: context.mvpdClientIP, fresh: fresh)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: DecisionsJSON.body(DecisionsResponse(decisions: answers))))
    }

    /// Reads `{"resources": [...]}` (JSON) or `resources=a,b` / repeated form fields.
    package static func parseResources(text: String, contentType: String?) throws -> [String] {
        let resources: [String]
        if contentType?.hasASCIIPrefixIgnoringCase("application/x-www-form-urlencoded") == true {
            resources = (FormURLEncoding.parse(text)["resources"] ?? "").split(separator: ",").map(String.init)
        } else if let simple = DecisionsJSON.resources(text) {
            resources = simple
        } else {
            guard let body = try? JSONDecoder().decode(DecisionsRequest.self, from: Data(text.utf8)) else {
                throw APIError(EnhancedError.invalidResources.with(details: "The body must be JSON: {\"resources\": [\"…\"]}."))
            }
            resources = body.resources
        }
        guard !resources.isEmpty else {
            throw APIError(EnhancedError.invalidResources.with(details: "At least one resource is required."))
        }
        return resources
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: any CatalogReading, decisions: DecisionService, profileChecks: ProfileChecks, singleSignOn: TokenSingleSignOn) {
        self.singleSignOn = singleSignOn
        self.catalog = catalog
        self.decisions = decisions
        self.profileChecks = profileChecks
    }
}
