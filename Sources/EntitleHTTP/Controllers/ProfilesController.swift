import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Profiles: `GET {sp}/profiles`, `{sp}/profiles/{mvpd}`, `{sp}/profiles/code/{code}`.
package struct ProfilesController {
    /// The device's profiles.
    package let profileStore: any ProfileStoring
    /// The integration of the path's MVPD.
    package let catalog: any CatalogReading
    package let sessions: AuthenticationSessions
    package let profiles: WireProfiles
    /// The profile expiry check shared with decisions, REST v1 and adobe-services.
    package let profileChecks: ProfileChecks
    /// Single sign-on by platform identity and service token.
    package let singleSignOn: TokenSingleSignOn

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("profiles") { request, context in
            let caller = context.caller
            var records = try await profileStore.profiles(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
            let tokens = SingleSignOnTokens(request.headers)
            if !tokens.isEmpty {
                // The device's own sign-ins first; a sign-in shared under the request's SSO identity for the other MVPDs.
                let identities = await singleSignOn.identities(tokens, requestor: caller.requestor.id, logger: context.logger)
                let own = Set(records.filter(profileChecks.isLive).map(\.mvpdId))
                let shared = try await singleSignOn.sharedProfiles(identities, caller: caller)
                records = records.filter { !shared.keys.contains($0.mvpdId) || own.contains($0.mvpdId) }
                records += shared.values.filter { !own.contains($0.shared.mvpdId) }.map(\.shared)
            }
            return JSONCoding.response(json: try await profiles.profilesJSON(records, requestor: caller.requestor))
        }
        group.get("profiles/code/:code") { _, context in
            let caller = context.caller
            let session = try await sessions.liveSession(
                code: try context.parameters.require("code"), requestor: caller.requestor.id,
                bucket: caller.device.value)
            guard session.clientId == caller.clientID, session.deviceId == caller.device.value else {
                try await sessions.countFailedCodeLookup(bucket: caller.device.value)
                throw APIError(.invalidCode)
            }
            if session.status == .failed {
                // An OAuth 2.0 MVPD's failure is kept as "code: details" (the details name the MVPD).
                let reason = session.failure.flatMap { failure in failure.firstRange(of: ": ").map { " " + failure[$0.upperBound...] } } ?? ""
                throw APIError(
                    EnhancedError.authenticatedProfileMissing.with(details: "The sign-in at the TV provider did not succeed." + reason))
            }
            guard session.status == .authenticated, let mvpd = session.mvpdId,
                let record = try await profileStore.profile(
                    requestor: caller.requestor.id, client: caller.clientID,
                    device: caller.device.value, mvpd: mvpd),
                profileChecks.isLive(record)
            else {
                throw APIError(
                    EnhancedError(
                        action: "authentication", status: 404, code: "authenticated_profile_missing",
                        message: "The authentication has not completed yet. Poll again in a few seconds."))
            }
            return JSONCoding.response(json: try await profiles.profilesJSON([record], requestor: caller.requestor))
        }
        group.get("profiles/:mvpd") { request, context in
            let caller = context.caller
            let mvpd = try await catalog.requireIntegratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            var record = try await profileStore.profile(
                requestor: caller.requestor.id, client: caller.clientID,
                device: caller.device.value, mvpd: mvpd.id)
            let tokens = SingleSignOnTokens(request.headers)
            if !tokens.isEmpty, !(record.map(profileChecks.isLive) ?? false) {
                let identities = await singleSignOn.identities(tokens, requestor: caller.requestor.id, logger: context.logger)
                record = try await singleSignOn.sharedProfiles(identities, caller: caller, mvpd: mvpd.id)[mvpd.id]?.shared ?? record
            }
            return JSONCoding.response(json: try await profiles.profilesJSON(record.map { [$0] } ?? [], requestor: caller.requestor))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        profileStore: any ProfileStoring, catalog: any CatalogReading, sessions: AuthenticationSessions, profiles: WireProfiles,
        profileChecks: ProfileChecks, singleSignOn: TokenSingleSignOn
    ) {
        self.singleSignOn = singleSignOn
        self.profileStore = profileStore
        self.catalog = catalog
        self.sessions = sessions
        self.profiles = profiles
        self.profileChecks = profileChecks
    }
}
