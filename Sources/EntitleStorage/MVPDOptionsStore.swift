import EntitleModel
import SQLKit

/// The per-MVPD protocol options: SAML and XACML options, SSO POST locations, preflight limits and lineups.
package struct MVPDOptionsStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension MVPDSAMLOptionsRecord: StoredRecord {
    /// An `mvpd_saml_options` row: the map as JSON text, flags as 0/1.
    package struct Row: Decodable {
        package var mvpdId: String
        package var attributeMap: String
        package var allowRsaSha1: Int64
        package var authorizeAll: Int64

        /// Creates the value from each of its stored properties.
        package init(mvpdId: String, attributeMap: String, allowRsaSha1: Int64, authorizeAll: Int64) {
            self.mvpdId = mvpdId
            self.attributeMap = attributeMap
            self.allowRsaSha1 = allowRsaSha1
            self.authorizeAll = authorizeAll
        }
    }

    package init(row: Row) {
        self.init(
            mvpdId: row.mvpdId, attributeMapping: JSONText.decode(row.attributeMap),
            allowRSASHA1: Bool(storedFlag: row.allowRsaSha1), authorizeAll: Bool(storedFlag: row.authorizeAll))
    }
}

extension MVPDOptionsStore {
    /// The SAML settings of an MVPD (nil when none were stored: defaults apply). Read from the catalog cache: every
    /// decision for an authorize-all MVPD asks, and a change bumps the catalog version.
    package func samlOptions(mvpd: String) async throws -> MVPDSAMLOptionsRecord? {
        try await cached(catalogCache.samlOptions, mvpd) {
            try await first("SELECT * FROM mvpd_saml_options WHERE mvpd_id = \(bind: mvpd)", as: MVPDSAMLOptionsRecord.self)
        }
    }

    /// Creates or replaces the SAML settings of an MVPD.
    package func upsertSAMLOptions(_ o: MVPDSAMLOptionsRecord) async throws {
        try await run(
            """
            INSERT INTO mvpd_saml_options (mvpd_id, attribute_map, allow_rsa_sha1, authorize_all)
            VALUES (\(bind: o.mvpdId), \(bind: JSONText.encode(o.attributeMapping)), \(bind: o.allowRSASHA1.storedFlag),
                    \(bind: o.authorizeAll.storedFlag))
            ON CONFLICT (mvpd_id) DO UPDATE SET attribute_map = excluded.attribute_map,
              allow_rsa_sha1 = excluded.allow_rsa_sha1, authorize_all = excluded.authorize_all
            """)
        try await catalogChanged()
    }
}
