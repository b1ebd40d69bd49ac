import EntitleCore
import EntitleModel
import SQLKit

extension MVPDOptionsStore {
    /// The HBA policy of an integration, or nil when it sets none. From the catalog cache.
    package func hbaPolicy(requestor: String, mvpd: String) async throws -> HBAPolicy? {
        try await hbaPolicyRows().first { $0.requestorId == requestor && $0.mvpdId == mvpd }?.policy
    }

    /// Sets an integration's HBA policy; an empty policy removes it.
    package func setHBAPolicy(requestor: String, mvpd: String, policy: HBAPolicy) async throws {
        if policy.isEmpty {
            try await run("DELETE FROM integration_hba_policies WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)")
        } else {
            let denied = JSONText.encode(policy.deniedResources)
            try await run(
                """
                INSERT INTO integration_hba_policies (requestor_id, mvpd_id, profile_ttl_seconds, denied_resources)
                VALUES (\(bind: requestor), \(bind: mvpd), \(bind: policy.profileTTLSeconds), \(bind: denied))
                ON CONFLICT (requestor_id, mvpd_id) DO UPDATE
                SET profile_ttl_seconds = excluded.profile_ttl_seconds, denied_resources = excluded.denied_resources
                """)
        }
        try await catalogChanged()
    }

    /// A row of `integration_hba_policies`, as cached.
    package struct HBAPolicyRow: Decodable, Sendable {
        package var requestorId: String
        package var mvpdId: String
        package var profileTtlSeconds: Int64?
        package var deniedResources: String

        /// The policy the row holds.
        package var policy: HBAPolicy {
            HBAPolicy(profileTTLSeconds: profileTtlSeconds, deniedResources: JSONText.decode(deniedResources))
        }
    }

    private func hbaPolicyRows() async throws -> [HBAPolicyRow] {
        try await cached(catalogCache.hbaPolicies, .table) { try await all("SELECT * FROM integration_hba_policies", as: HBAPolicyRow.self) }
    }
}
