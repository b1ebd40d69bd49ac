import EntitleModel
import SQLKit

extension MVPDOptionsStore {
    /// The SAML attribute whose values are the channel lineup when this integration preflights by lineup (notes §3 way
    /// 2); nil when it does not. From the catalog cache.
    package func preflightLineupAttribute(requestor: String, mvpd: String) async throws -> String? {
        try await lineupSettings().first { $0.requestorId == requestor && $0.mvpdId == mvpd }?.attribute
    }

    /// Turns preflight by lineup on (the lineup read from `attribute`) or off (nil) for an integration.
    package func setPreflightLineup(requestor: String, mvpd: String, attribute: String?) async throws {
        if let attribute {
            try await run(
                """
                INSERT INTO integration_lineup (requestor_id, mvpd_id, attribute) VALUES (\(bind: requestor), \(bind: mvpd), \(bind: attribute))
                ON CONFLICT (requestor_id, mvpd_id) DO UPDATE SET attribute = excluded.attribute
                """)
        } else {
            try await run("DELETE FROM integration_lineup WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)")
        }
        try await catalogChanged()
    }

    /// The lineup attribute of every integration of an MVPD that preflights by lineup, by requestor.
    package func preflightLineupSettings(mvpd: String) async throws -> [String: String] {
        Dictionary(
            try await lineupSettings().filter { $0.mvpdId == mvpd }.map { ($0.requestorId, $0.attribute) }, uniquingKeysWith: { first, _ in first })
    }

    /// A row of `integration_lineup`, as cached.
    package struct LineupRow: Decodable, Sendable {
        package var requestorId: String
        package var mvpdId: String
        package var attribute: String

        /// Creates the value from each of its stored properties.
        package init(requestorId: String, mvpdId: String, attribute: String) {
            self.requestorId = requestorId
            self.mvpdId = mvpdId
            self.attribute = attribute
        }
    }

    private func lineupSettings() async throws -> [LineupRow] {
        try await cached(catalogCache.preflightLineups, .table) { try await all("SELECT * FROM integration_lineup", as: LineupRow.self) }
    }
}
