import SQLKit

/// How an XACML 2.0 query travels to an MVPD's PDP (notes §1.3).
package enum XACMLBinding: String, Codable, Sendable, CaseIterable {
    /// The bare request context posted as `text/xml` (Adobe's `authz-usecase.md` sample); the default.
    case plain
    /// The OLCA form: an `XACMLAuthzDecisionQuery` with the SP's issuer in a SOAP 1.1 envelope, answered by a SAML
    /// `Response` holding an `XACMLAuthzDecisionStatement`.
    case soap
}

/// An MVPD's XACML settings (a row exists only when they are not the defaults: plain, unsigned).
package struct MVPDXACMLOptions: Codable, Sendable, Equatable {
    /// How the query travels.
    package var binding: XACMLBinding
    /// Whether the SOAP query carries an enveloped XML signature with the service's SAML SP key.
    package var signQueries: Bool

    /// The defaults: the bare request context, unsigned.
    package static let defaults = MVPDXACMLOptions(binding: .plain, signQueries: false)

    /// Creates settings.
    package init(binding: XACMLBinding, signQueries: Bool) {
        self.binding = binding
        self.signQueries = signQueries
    }
}

extension MVPDOptionsStore {
    /// A row of `mvpd_xacml_options`, as cached.
    struct XACMLRow: Decodable, Sendable {
        var mvpdId: String
        var binding: String
        var signQueries: Int64
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
