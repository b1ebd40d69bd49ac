import EntitleCore
import EntitleModel
import EntitleStorage

/// Preauthorization from the channel lineup kept with the profile (notes §3, way 2): no MVPD call. A resource in the
/// lineup is authorized; any other is denied with `preauthorization_denied_by_mvpd` (403), as the MVPD's own
/// preauthorization answer — the lineup is the MVPD's statement of what the subscriber may watch, made at sign-in.
extension DecisionService {
    /// Verdicts for `resources` (in order) from `lineup`; malformed resources are refused as on every other path.
    package static func lineupVerdicts(_ resources: [String], lineup: ChannelLineup, mvpd: MVPDRecord) -> [Verdict] {
        resources.map { raw in
            do throws(EnhancedError) {
                let resource = try ProtectedResource(parsing: raw)
                if lineup.contains(resource) { return .authorized(source: .mvpd) }
                return .denied(
                    EnhancedError.preauthorizationDeniedByMVPD.with(
                        details: "\(resource.channel) is not in the channel lineup \(mvpd.displayName) sent at sign-in."),
                    source: .mvpd)
            } catch {
                return .denied(error, source: .mvpd)
            }
        }
    }

    /// The lineup to answer a preauthorization from: the profile's, when the integration preflights by lineup and the
    /// sign-in carried one; nil otherwise (the MVPD is asked).
    package func lineup(requestor: String, mvpd: MVPDRecord, profile: ProfileRecord) async throws -> ChannelLineup? {
        guard let lineup = ChannelLineup(stored: profile.lineup) else { return nil }
        guard try await mvpdOptions.preflightLineupAttribute(requestor: requestor, mvpd: mvpd.id) != nil else { return nil }
        return lineup
    }
}
