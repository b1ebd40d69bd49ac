import EntitleCore
import EntitleModel
import EntitleStorage

/// Resources an integration keeps from home-based sign-ins (``HBAPolicy/deniedResources``): whatever else decided, a
/// home-based profile is denied them with `authorization_denied_by_hba_policies` (403), so the app can ask the viewer
/// to sign in with credentials.
extension DecisionService {
    /// `verdicts` (for `resources`, in order) with every authorized resource the HBA policy denies home-based sign-ins
    /// turned into that denial. Compared as ``ChannelLineup`` compares: the channel (plain id or MRSS channel title) or
    /// the resource exactly as sent.
    package func applyingHBAPolicy(
        _ verdicts: [Verdict], resources: [String], requestor: String, mvpd: MVPDRecord, profile: ProfileRecord
    ) async throws -> [Verdict] {
        guard let policy = try await mvpdOptions.hbaPolicy(requestor: requestor, mvpd: mvpd.id), !policy.deniedResources.isEmpty,
            profile.isHomeBased
        else { return verdicts }
        let denied = ChannelLineup(resources: policy.deniedResources)
        return zip(resources, verdicts).map { raw, verdict in
            guard case .authorized = verdict, let resource = try? ProtectedResource(parsing: raw), denied.contains(resource) else {
                return verdict
            }
            return .denied(
                EnhancedError.authorizationDeniedByHBAPolicies.with(
                    details:
                        "\(resource.channel) is not available with a home-based sign-in to \(mvpd.displayName): sign in with your TV provider account."
                ),
                source: .mvpd)
        }
    }
}
