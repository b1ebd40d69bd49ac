import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Home-based authentication (HBA) per integration: the lifetime of home-based sign-ins and the resources they are
/// never authorized for (``HBAPolicy``), as Adobe's TVE Dashboard sets them per integration.
extension IntegrationOperations {
    /// A change of an integration's HBA policy: nil leaves a part as it is.
    package struct HBAChange: Sendable {
        /// The lifetime of home-based sign-ins, seconds; 0 removes it (they last as long as any other sign-in).
        package var profileTTLSeconds: Int64?
        /// The resources home-based sign-ins are denied, replacing the list; empty removes them all.
        package var deniedResources: [String]?

        /// Creates the value from each of its stored properties.
        package init(profileTTLSeconds: Int64? = nil, deniedResources: [String]? = nil) {
            self.profileTTLSeconds = profileTTLSeconds
            self.deniedResources = deniedResources
        }
    }

    /// The HBA policy of one integration (an empty policy when none is set).
    package func hbaPolicy(requestor: String, mvpd: String) async throws -> HBAPolicy {
        try await lookups.existingIntegration(requestor: requestor, mvpd: mvpd)
        return try await mvpdOptions.hbaPolicy(requestor: requestor, mvpd: mvpd) ?? HBAPolicy()
    }

    /// Changes an integration's HBA policy and records it. A lifetime is 60 s to 400 days (or 0: none); resources are
    /// 1–1024 printable characters each, at most 1000.
    @discardableResult
    package func setHBAPolicy(requestor: String, mvpd: String, _ change: HBAChange, actor: String) async throws -> HBAPolicy {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        guard change.profileTTLSeconds != nil || change.deniedResources != nil else {
            throw AdminError("invalid_value", "give an HBA profile lifetime or the resources HBA sign-ins are denied")
        }
        let before = try await hbaPolicy(requestor: requestor, mvpd: mvpd)
        var after = before
        if let seconds = change.profileTTLSeconds {
            guard seconds == 0 || RequestorOperations.profileLifetimeRange.contains(seconds) else {
                throw AdminError("invalid_value", "the HBA profile lifetime is 60 seconds to 400 days (0 removes it)")
            }
            after.profileTTLSeconds = seconds == 0 ? nil : seconds
        }
        if let resources = change.deniedResources {
            let trimmed = resources.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            guard trimmed.count <= 1000 else { throw AdminError("invalid_value", "at most 1000 resources are denied to HBA sign-ins") }
            for resource in trimmed where resource.utf8.count > 1024 || resource.unicodeScalars.contains(where: LogEscaping.isUnsafe) {
                throw AdminError("invalid_value", "resource \"\(String(resource.prefix(64)).logEscaped)\": use 1-1024 printable characters")
            }
            var seen = Set<String>()
            after.deniedResources = trimmed.filter { seen.insert($0).inserted }
        }
        try await mvpdOptions.setHBAPolicy(requestor: requestor, mvpd: mvpd, policy: after)
        try await changes.record(actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)", before: before, after: after)
        return after
    }
}
