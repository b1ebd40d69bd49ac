import EntitleModel
import SQLKit

extension MVPDOptionsStore {
    /// A row of `mvpd_xacml_options`, as cached.
    package struct XACMLRow: Decodable, Sendable {
        package var mvpdId: String
        package var binding: String
        package var signQueries: Int64

        /// Creates the value from each of its stored properties.
        package init(mvpdId: String, binding: String, signQueries: Int64) {
            self.mvpdId = mvpdId
            self.binding = binding
            self.signQueries = signQueries
        }
    }

    /// The XACML settings of an MVPD (the defaults unless configured), from the catalog cache.
    package func xacmlOptions(mvpd: String) async throws -> MVPDXACMLOptions {
        let rows = try await cached(catalogCache.xacmlOptions, .table) { try await all("SELECT * FROM mvpd_xacml_options", as: XACMLRow.self) }
        guard let row = rows.first(where: { $0.mvpdId == mvpd }) else { return .defaults }
        return MVPDXACMLOptions(binding: XACMLBinding(rawValue: row.binding) ?? .plain, signQueries: row.signQueries != 0)
    }

    /// Sets the XACML settings of an MVPD (the defaults remove the row).
    package func setXACMLOptions(mvpd: String, _ options: MVPDXACMLOptions) async throws {
        if options == .defaults {
            try await run("DELETE FROM mvpd_xacml_options WHERE mvpd_id = \(bind: mvpd)")
        } else {
            try await run(
                """
                INSERT INTO mvpd_xacml_options (mvpd_id, binding, sign_queries)
                VALUES (\(bind: mvpd), \(bind: options.binding.rawValue), \(bind: options.signQueries ? Int64(1) : Int64(0)))
                ON CONFLICT (mvpd_id) DO UPDATE SET binding = excluded.binding, sign_queries = excluded.sign_queries
                """)
        }
        try await catalogChanged()
    }
}
