import EntitleModel
import SQLKit

extension MVPDOptionsStore {
    /// A row of `integration_preflight`, as cached.
    package struct PreflightRow: Decodable, Sendable {
        package var requestorId: String
        package var mvpdId: String
        package var maxResources: Int64

        /// Creates the value from each of its stored properties.
        package init(requestorId: String, mvpdId: String, maxResources: Int64) {
            self.requestorId = requestorId
            self.mvpdId = mvpdId
            self.maxResources = maxResources
        }
    }

    /// How many resources one preflight call to the MVPD may carry for this integration — its own setting, else its
    /// requestor's default; nil when preflight in one call is off (each resource is asked on its own). From the catalog
    /// cache.
    package func preflightMaxResources(requestor: String, mvpd: String) async throws -> Int64? {
        let own = try await integrationPreflightMaxResources(requestor: requestor, mvpd: mvpd)
        let limit: Int64?
        if let own { limit = own } else { limit = try await CatalogStore(base: base).requestor(id: requestor)?.defaultPreflightMaxResources }
        return limit.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The integration's own preflight setting: nil when it sets none, 0 when it turns preflight in one call off
    /// although its requestor's default would turn it on. From the catalog cache.
    package func integrationPreflightMaxResources(requestor: String, mvpd: String) async throws -> Int64? {
        let rows = try await cached(catalogCache.preflightLimits, .table) {
            try await all("SELECT * FROM integration_preflight", as: PreflightRow.self)
        }
        return rows.first { $0.requestorId == requestor && $0.mvpdId == mvpd }?.maxResources
    }

    /// Turns preflight in one call on (at most `maxResources` per call) or off (nil or 0) for an integration. Off is kept
    /// as 0 where the requestor's default would turn it on, and forgotten otherwise.
    package func setPreflight(requestor: String, mvpd: String, maxResources: Int64?) async throws {
        let requestorDefault = try await CatalogAdminStore(base: base).requestorForAdmin(id: requestor)?.defaultPreflightMaxResources ?? 0
        let maxResources = maxResources ?? 0
        if maxResources > 0 || requestorDefault > 0 {
            try await run(
                """
                INSERT INTO integration_preflight (requestor_id, mvpd_id, max_resources) VALUES (\(bind: requestor), \(bind: mvpd), \(bind: maxResources))
                ON CONFLICT (requestor_id, mvpd_id) DO UPDATE SET max_resources = excluded.max_resources
                """)
        } else {
            try await run("DELETE FROM integration_preflight WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)")
        }
        try await catalogChanged()
    }

    /// The preflight maximum of every integration of an MVPD that has one, by requestor.
    package func preflightSettings(mvpd: String) async throws -> [String: Int64] {
        struct Row: Decodable, Sendable {
            var requestorId: String
            var maxResources: Int64

            /// Creates the value from each of its stored properties.
            package init(requestorId: String, maxResources: Int64) {
                self.requestorId = requestorId
                self.maxResources = maxResources
            }
        }
        let rows = try await all("SELECT requestor_id, max_resources FROM integration_preflight WHERE mvpd_id = \(bind: mvpd)", as: Row.self)
        return Dictionary(rows.map { ($0.requestorId, $0.maxResources) }, uniquingKeysWith: { first, _ in first })
    }
}
