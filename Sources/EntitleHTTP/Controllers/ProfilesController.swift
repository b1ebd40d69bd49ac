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
    package let profiles: ProfileAnswers
    /// The profile expiry check shared with decisions, REST v1 and adobe-services.
    package let profileChecks: ProfileChecks

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("profiles") { _, context in
            let caller = context.caller
            let records = try await profileStore.profiles(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
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
        group.get("profiles/:mvpd") { _, context in
            let caller = context.caller
            let mvpd = try await catalog.requireIntegratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            let record = try await profileStore.profile(
                requestor: caller.requestor.id, client: caller.clientID,
                device: caller.device.value, mvpd: mvpd.id)
            return JSONCoding.response(json: try await profiles.profilesJSON(record.map { [$0] } ?? [], requestor: caller.requestor))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        profileStore: any ProfileStoring, catalog: any CatalogReading, sessions: AuthenticationSessions, profiles: ProfileAnswers,
        profileChecks: ProfileChecks
    ) {
        self.profileStore = profileStore
        self.catalog = catalog
        self.sessions = sessions
        self.profiles = profiles
        self.profileChecks = profileChecks
    }
}
