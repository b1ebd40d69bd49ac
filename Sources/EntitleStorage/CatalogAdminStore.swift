import EntitleModel
import SQLKit

/// Catalog writes and lists of onboarding and administration: disabled requestors and MVPDs, integrations, metadata sources.
package struct CatalogAdminStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

/// What the onboarding commands and the admin API read and change beyond the catalog reads of the request path:
/// requestors and MVPDs whatever their state, disabled flags, integrations, removal.
extension CatalogAdminStore {
    /// A requestor by id, disabled or not.
    package func requestorForAdmin(id: String) async throws -> RequestorRecord? {
        try await first("SELECT * FROM requestors WHERE id = \(bind: id)", as: RequestorRecord.self)
    }

    /// Ids of disabled requestors.
    package func disabledRequestorIDs() async throws -> Set<String> {
        Set(try await sql.raw("SELECT requestor_id FROM disabled_requestors").all(decodingColumn: "requestor_id", as: String.self))
    }

    /// Ids of disabled MVPDs.
    package func disabledMVPDIDs() async throws -> Set<String> {
        Set(try await sql.raw("SELECT mvpd_id FROM disabled_mvpds").all(decodingColumn: "mvpd_id", as: String.self))
    }

    /// Disables (refused everywhere within the catalog bound) or enables a requestor.
    package func setRequestorDisabled(id: String, _ disabled: Bool, at: Int64) async throws {
        if disabled {
            try await run(
                """
                INSERT INTO disabled_requestors (requestor_id, disabled_at) VALUES (\(bind: id), \(bind: at))
                ON CONFLICT (requestor_id) DO NOTHING
                """)
        } else {
            try await run("DELETE FROM disabled_requestors WHERE requestor_id = \(bind: id)")
        }
        try await catalogChanged()
    }

    /// Disables (no sign-in, authorization or listing for any requestor) or enables an MVPD.
    package func setMVPDDisabled(id: String, _ disabled: Bool, at: Int64) async throws {
        if disabled {
            try await run(
                "INSERT INTO disabled_mvpds (mvpd_id, disabled_at) VALUES (\(bind: id), \(bind: at)) ON CONFLICT (mvpd_id) DO NOTHING")
        } else {
            try await run("DELETE FROM disabled_mvpds WHERE mvpd_id = \(bind: id)")
        }
        try await catalogChanged()
    }

    /// Integrations, optionally of one requestor and/or one MVPD, ordered by requestor then MVPD.
    package func integrations(requestor: String?, mvpd: String?) async throws -> [IntegrationRecord] {
        let rows = try await all(
            """
            SELECT i.requestor_id, i.mvpd_id, i.enabled, o.display_name, o.logo_url, o.profile_ttl_seconds FROM integrations i
            LEFT JOIN integration_overrides o ON o.requestor_id = i.requestor_id AND o.mvpd_id = i.mvpd_id
            ORDER BY i.requestor_id, i.mvpd_id
            """, as: IntegrationRecord.self)
        return rows.filter { (requestor == nil || $0.requestorId == requestor) && (mvpd == nil || $0.mvpdId == mvpd) }
    }

    /// Sets (or, with all three nil, clears) an integration's display name, logo and profile lifetime.
    package func setIntegrationOverrides(requestor: String, mvpd: String, displayName: String?, logoURL: String?, profileTTLSeconds: Int64?)
        async throws
    {
        if displayName == nil && logoURL == nil && profileTTLSeconds == nil {
            try await run("DELETE FROM integration_overrides WHERE requestor_id = \(bind: requestor) AND mvpd_id = \(bind: mvpd)")
        } else {
            try await run(
                """
                INSERT INTO integration_overrides (requestor_id, mvpd_id, display_name, logo_url, profile_ttl_seconds)
                VALUES (\(bind: requestor), \(bind: mvpd), \(bind: displayName), \(bind: logoURL), \(bind: profileTTLSeconds))
                ON CONFLICT (requestor_id, mvpd_id) DO UPDATE SET display_name = excluded.display_name, logo_url = excluded.logo_url,
                  profile_ttl_seconds = excluded.profile_ttl_seconds
                """)
        }
        try await catalogChanged()
    }

    /// Records (or, with nil, forgets) the URL an MVPD's SAML metadata is fetched from.
    package func setMetadataSource(mvpd: String, url: String?, at: Int64) async throws {
        guard let url else { return try await run("DELETE FROM mvpd_metadata_sources WHERE mvpd_id = \(bind: mvpd)") }
        try await run(
            """
            INSERT INTO mvpd_metadata_sources (mvpd_id, url, refreshed_at) VALUES (\(bind: mvpd), \(bind: url), \(bind: at))
            ON CONFLICT (mvpd_id) DO UPDATE SET url = excluded.url, refreshed_at = excluded.refreshed_at
            """)
    }

    /// Every MVPD whose metadata comes from a URL: (MVPD id, URL), by id.
    package func metadataSources() async throws -> [(mvpd: String, url: String)] {
        try await sql.raw("SELECT mvpd_id, url FROM mvpd_metadata_sources ORDER BY mvpd_id").all().map {
            (try $0.decode(column: "mvpd_id", as: String.self), try $0.decode(column: "url", as: String.self))
        }
    }

    /// Removes an MVPD with its integrations and settings.
    package func deleteMVPD(id: String) async throws {
        for table in [
            "integrations", "integration_overrides", "mvpd_saml_options", "mvpd_sso_post", "mvpd_authorization_protocols", "disabled_mvpds",
            "mvpd_oauth2", "mvpd_metadata_sources", "integration_preflight", "oauth2_grants", "oauth2_pending", "mvpd_xacml_options",
            "integration_lineup", "integration_hba_policies", "mvpd_proxies", "proxied_mvpd_requestors",
        ] {
            try await run("DELETE FROM \(unsafeRaw: table) WHERE mvpd_id = \(bind: id)")
        }
        try await run("DELETE FROM proxied_mvpds WHERE id = \(bind: id)")
        try await run("DELETE FROM mvpds WHERE id = \(bind: id)")
        try await catalogChanged()
    }
}
