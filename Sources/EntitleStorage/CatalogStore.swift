import EntitleModel
import SQLKit

/// The catalog a request reads: requestors, MVPDs, integrations and the per-requestor settings of an authorization (TTL, authorization protocol, media-token algorithm).
package struct CatalogStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension CatalogStore {
    /// A requestor by id.
    package func requestor(id: String) async throws -> RequestorRecord? {
        try await cached(catalogCache.requestors, id) {
            try await first(
                """
                SELECT * FROM requestors r WHERE r.id = \(bind: id)
                AND NOT EXISTS (SELECT 1 FROM disabled_requestors d WHERE d.requestor_id = r.id)
                """, as: RequestorRecord.self)
        }
    }

    /// Creates or replaces a requestor.
    package func upsertRequestor(_ r: RequestorRecord) async throws {
        try await run(
            """
            INSERT INTO requestors (id, name, domains, max_resources, metadata_certificate_pem, default_profile_ttl_seconds,
              default_authz_ttl_seconds, default_preflight_max_resources)
            VALUES (\(bind: r.id), \(bind: r.name), \(bind: JSONText.encode(r.domains)), \(bind: r.maxResources), \(bind: r.metadataCertificatePem),
              \(bind: r.defaultProfileTtlSeconds), \(bind: r.defaultAuthzTtlSeconds), \(bind: r.defaultPreflightMaxResources))
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, domains = excluded.domains,
              max_resources = excluded.max_resources, metadata_certificate_pem = excluded.metadata_certificate_pem,
              default_profile_ttl_seconds = excluded.default_profile_ttl_seconds, default_authz_ttl_seconds = excluded.default_authz_ttl_seconds,
              default_preflight_max_resources = excluded.default_preflight_max_resources
            """)
        try await catalogChanged()
    }

    /// An MVPD by id.
    package func mvpd(id: String) async throws -> MVPDRecord? {
        try await cached(catalogCache.mvpds, id) { try await first("SELECT * FROM mvpds WHERE id = \(bind: id)", as: MVPDRecord.self) }
    }

    /// An MVPD by its SAML entity id.
    package func mvpd(entityID: String) async throws -> MVPDRecord? {
        try await cached(catalogCache.mvpdsByEntity, entityID) {
            try await first("SELECT * FROM mvpds WHERE entity_id = \(bind: entityID)", as: MVPDRecord.self)
        }
    }

    /// The MVPDs integrated (and enabled) with a requestor, ordered by display name, with the integration's display
    /// name, logo and profile lifetime where it overrides the MVPD's (the lifetime: the integration's, else the
    /// requestor's default, else the MVPD's).
    package func mvpds(requestor: String) async throws -> [MVPDRecord] {
        try await cached(catalogCache.requestorMVPDs, requestor) {
            try await integratedRecords(where: "i.requestor_id = \(bind: requestor)").sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
        }
    }

    /// An MVPD if it is integrated and enabled for the requestor, with the integration's overrides.
    package func integratedMVPD(requestor: String, mvpd: String) async throws -> MVPDRecord? {
        try await cached(catalogCache.integratedMVPDs, IntegrationKey(requestor: requestor, mvpd: mvpd)) {
            try await integratedRecords(where: "i.requestor_id = \(bind: requestor) AND i.mvpd_id = \(bind: mvpd)").first
        }
    }

    /// The settings of one integration that replace its MVPD's.
    private struct OverrideRow: Decodable {
        var overrideDisplayName: String?
        var overrideLogoUrl: String?
        var overrideProfileTtlSeconds: Int64?
        /// A proxied MVPD's pushed iframe size.
        var proxiedIframeWidth: Int64?
        var proxiedIframeHeight: Int64?
    }

    /// The enabled integrations matching `condition` (on `i`, the integrations), as MVPD rows of MVPDs not disabled,
    /// with the integration's overrides applied (the profile lifetime: the integration's, else its requestor's default)
    /// and a proxied MVPD's pushed iframe size.
    private func integratedRecords(where condition: SQLQueryString) async throws -> [MVPDRecord] {
        let query: SQLQueryString =
            """
            SELECT m.*, o.display_name AS override_display_name, o.logo_url AS override_logo_url,
              COALESCE(o.profile_ttl_seconds, r.default_profile_ttl_seconds) AS override_profile_ttl_seconds,
              px.iframe_width AS proxied_iframe_width, px.iframe_height AS proxied_iframe_height
            FROM mvpds m JOIN (\(unsafeRaw: Self.integrationsWithProxied)) i ON i.mvpd_id = m.id
            LEFT JOIN integration_overrides o ON o.requestor_id = i.requestor_id AND o.mvpd_id = i.mvpd_id
            LEFT JOIN proxied_mvpds px ON px.id = m.id
            LEFT JOIN requestors r ON r.id = i.requestor_id
            WHERE i.enabled = 1 AND NOT EXISTS (SELECT 1 FROM disabled_mvpds d WHERE d.mvpd_id = m.id)
            AND NOT EXISTS (SELECT 1 FROM mvpd_proxies p WHERE p.mvpd_id = m.id AND p.listed = 0)
            AND NOT EXISTS (SELECT 1 FROM disabled_mvpds dp WHERE dp.mvpd_id = m.proxy_mvpd_id) AND
            """ + " " + condition
        return try await sql.raw(query).all().map { row in
            var record = MVPDRecord(row: try decoder.decode(MVPDRecord.Row.self, from: row))
            let override = try decoder.decode(OverrideRow.self, from: row)
            if let name = override.overrideDisplayName { record.displayName = name }
            if let logo = override.overrideLogoUrl { record.logoUrl = logo }
            if let ttl = override.overrideProfileTtlSeconds { record.profileTtlSeconds = ttl }
            (record.iframeWidth, record.iframeHeight) = (override.proxiedIframeWidth, override.proxiedIframeHeight)
            return record
        }
    }

    /// Creates or replaces an MVPD.
    package func upsertMVPD(_ m: MVPDRecord) async throws {
        try await run(
            """
            INSERT INTO mvpds (id, display_name, logo_url, kind, entity_id, sso_url, slo_url, certificates,
              authorization_url, authorization_key, requires_svc, enable_platform_services, boarding_status,
              platform_mapping_id, display_in_platform_picker, temppass_minutes, profile_ttl_seconds, encrypted_attributes,
              temppass_resource_limit)
            VALUES (\(bind: m.id), \(bind: m.displayName), \(bind: m.logoUrl), \(bind: m.kind.rawValue), \(bind: m.entityId),
              \(bind: m.ssoUrl), \(bind: m.sloUrl), \(bind: JSONText.encode(m.certificates)), \(bind: m.authorizationUrl),
              \(bind: m.authorizationKey), \(bind: m.requiresSafariViewController.storedFlag), \(bind: m.enablePlatformServices.storedFlag),
              \(bind: m.boardingStatus), \(bind: m.platformMappingId), \(bind: m.displayInPlatformPicker.storedFlag),
              \(bind: m.temppassMinutes), \(bind: m.profileTtlSeconds), \(bind: JSONText.encode(m.encryptedAttributes)),
              \(bind: m.temppassResourceLimit))
            ON CONFLICT (id) DO UPDATE SET display_name = excluded.display_name, logo_url = excluded.logo_url,
              kind = excluded.kind, entity_id = excluded.entity_id, sso_url = excluded.sso_url, slo_url = excluded.slo_url,
              certificates = excluded.certificates, authorization_url = excluded.authorization_url,
              authorization_key = excluded.authorization_key, requires_svc = excluded.requires_svc,
              enable_platform_services = excluded.enable_platform_services, boarding_status = excluded.boarding_status,
              platform_mapping_id = excluded.platform_mapping_id,
              display_in_platform_picker = excluded.display_in_platform_picker,
              temppass_minutes = excluded.temppass_minutes, profile_ttl_seconds = excluded.profile_ttl_seconds,
              encrypted_attributes = excluded.encrypted_attributes, temppass_resource_limit = excluded.temppass_resource_limit
            """)
        try await copyProxySettings(from: m)
        try await catalogChanged()
    }

    /// Enables or disables the integration of an MVPD with a requestor.
    package func setIntegration(requestor: String, mvpd: String, enabled: Bool) async throws {
        try await run(
            """
            INSERT INTO integrations (requestor_id, mvpd_id, enabled) VALUES (\(bind: requestor), \(bind: mvpd), \(bind: enabled ? 1 : 0))
            ON CONFLICT (requestor_id, mvpd_id) DO UPDATE SET enabled = excluded.enabled
            """)
        try await catalogChanged()
    }

    /// All MVPDs.
    package func allMVPDs() async throws -> [MVPDRecord] {
        try await all("SELECT * FROM mvpds ORDER BY id", as: MVPDRecord.self)
    }
}

extension CatalogStore {
    /// Every requestor, ordered by id.
    package func allRequestors() async throws -> [RequestorRecord] {
        try await all("SELECT * FROM requestors ORDER BY id", as: RequestorRecord.self)
    }
}
