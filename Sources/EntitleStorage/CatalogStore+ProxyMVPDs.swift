import EntitleModel
import SQLKit

/// Proxy MVPDs and their proxied MVPDs (migration 116). A proxied MVPD is an `mvpds` row with `proxy_mvpd_id` set,
/// whose SAML settings are its proxy's: they are copied when it is pushed and whenever the proxy changes
/// (``copyProxySettings(from:)``, called by every ``upsertMVPD(_:)``, metadata refresh included).
extension CatalogStore {
    /// The integrations the request path reads: the recorded ones, the `requestorIds` pushed for proxied MVPDs, and, for
    /// a proxied MVPD pushed without them, every integration of its proxy (enabled as the proxy's is). A recorded
    /// integration of a proxied MVPD (such as one an operator disabled) wins over the pushed ones.
    static let integrationsWithProxied = """
        SELECT requestor_id, mvpd_id, enabled FROM integrations
        UNION ALL
        SELECT pr.requestor_id, pr.mvpd_id, 1 AS enabled FROM proxied_mvpd_requestors pr
        WHERE NOT EXISTS (SELECT 1 FROM integrations e WHERE e.requestor_id = pr.requestor_id AND e.mvpd_id = pr.mvpd_id)
        UNION ALL
        SELECT pi.requestor_id, x.id AS mvpd_id, pi.enabled FROM proxied_mvpds x JOIN integrations pi ON pi.mvpd_id = x.proxy_mvpd_id
        WHERE x.all_requestors = 1 AND NOT EXISTS (SELECT 1 FROM integrations e WHERE e.requestor_id = pi.requestor_id AND e.mvpd_id = x.id)
        """

    /// Gives the proxied MVPDs of `proxy` (when it is one) the proxy's SAML settings: SSO and SLO URLs, certificates,
    /// authorization URL and key. A no-op for an MVPD that proxies none.
    func copyProxySettings(from proxy: MVPDRecord) async throws {
        guard proxy.proxyMvpdId == nil else { return }
        try await run(
            """
            UPDATE mvpds SET sso_url = \(bind: proxy.ssoUrl), slo_url = \(bind: proxy.sloUrl),
              certificates = \(bind: JSONText.encode(proxy.certificates)), authorization_url = \(bind: proxy.authorizationUrl),
              authorization_key = \(bind: proxy.authorizationKey)
            WHERE proxy_mvpd_id = \(bind: proxy.id)
            """)
    }

    private struct ProxyRow: Decodable {
        var mvpdId: String
        var listed: Int64
        var allowedAddresses: String
    }

    /// The proxy settings of an MVPD, if it is a proxy.
    package func proxy(id: String) async throws -> ProxyMVPDRecord? {
        try await first("SELECT mvpd_id, listed, allowed_addresses FROM mvpd_proxies WHERE mvpd_id = \(bind: id)", as: ProxyRow.self).map {
            ProxyMVPDRecord(mvpdId: $0.mvpdId, listed: $0.listed != 0, allowedAddresses: JSONText.decode($0.allowedAddresses))
        }
    }

    /// Marks an MVPD as a proxy (or changes its settings).
    package func setProxy(_ proxy: ProxyMVPDRecord, at: Int64) async throws {
        try await run(
            """
            INSERT INTO mvpd_proxies (mvpd_id, listed, allowed_addresses, updated_at)
            VALUES (\(bind: proxy.mvpdId), \(bind: proxy.listed ? 1 : 0), \(bind: JSONText.encode(proxy.allowedAddresses)), \(bind: at))
            ON CONFLICT (mvpd_id) DO UPDATE SET listed = excluded.listed, allowed_addresses = excluded.allowed_addresses,
              updated_at = excluded.updated_at
            """)
        try await catalogChanged()
    }

    /// Lets the clients of a software statement push for a proxy.
    package func setProxySoftwareStatement(softwareID: String, proxy: String) async throws {
        try await run(
            """
            INSERT INTO proxy_software_statements (software_id, proxy_mvpd_id) VALUES (\(bind: softwareID), \(bind: proxy))
            ON CONFLICT (software_id) DO UPDATE SET proxy_mvpd_id = excluded.proxy_mvpd_id
            """)
    }

    /// The proxy whose web-service clients a software statement registers, if any.
    package func proxyOfSoftwareStatement(_ softwareID: String) async throws -> String? {
        try await sql.raw("SELECT proxy_mvpd_id FROM proxy_software_statements WHERE software_id = \(bind: softwareID)")
            .first(decodingColumn: "proxy_mvpd_id", as: String.self)
    }

    private struct ProxiedRow: Decodable {
        var id: String
        var proxyMvpdId: String
        var providerId: String?
        var displayName: String
        var logoUrl: String
        var iframeHeight: Int64?
        var iframeWidth: Int64?
        var operatorDisplayName: String?
        var operatorLogoUrl: String?
        var allRequestors: Int64
        var pushedBy: String
        var pushedAt: Int64
    }

    /// The proxied MVPDs of a proxy (every one when nil), in the order pushed, with their display name and logo as pushed
    /// and as an operator changed them.
    package func proxiedMVPDs(proxy: String?) async throws -> [ProxiedMVPDRecord] {
        let condition: SQLQueryString = proxy.map { "WHERE x.proxy_mvpd_id = \(bind: $0)" } ?? ""
        let rows = try await all(
            """
            SELECT x.id, x.proxy_mvpd_id, x.provider_id, COALESCE(x.pushed_display_name, m.display_name) AS display_name,
              COALESCE(x.pushed_logo_url, m.logo_url) AS logo_url, x.operator_display_name, x.operator_logo_url, x.iframe_height,
              x.iframe_width, x.all_requestors, x.pushed_by, x.pushed_at
            FROM proxied_mvpds x JOIN mvpds m ON m.id = x.id
            """ + " " + condition + " ORDER BY x.proxy_mvpd_id, x.position", as: ProxiedRow.self)
        var requestors: [String: [String]] = [:]
        for row in try await sql.raw("SELECT mvpd_id, requestor_id FROM proxied_mvpd_requestors ORDER BY mvpd_id, requestor_id").all() {
            requestors[try row.decode(column: "mvpd_id", as: String.self), default: []].append(
                try row.decode(column: "requestor_id", as: String.self))
        }
        return rows.map {
            var record = ProxiedMVPDRecord(
                id: $0.id, proxyMvpdId: $0.proxyMvpdId, providerId: $0.providerId, displayName: $0.displayName, logoURL: $0.logoUrl,
                iframeHeight: $0.iframeHeight, iframeWidth: $0.iframeWidth, requestorIds: $0.allRequestors != 0 ? nil : requestors[$0.id] ?? [],
                pushedBy: $0.pushedBy, pushedAt: $0.pushedAt)
            (record.operatorDisplayName, record.operatorLogoURL) = ($0.operatorDisplayName, $0.operatorLogoUrl)
            return record
        }
    }

    /// Records one proxied MVPD pushed by its proxy: its MVPD row (the proxy's SAML settings, the ProviderID as entity
    /// id, the name and logo an operator gave it, else the pushed ones) and what was pushed. `position` keeps the pushed
    /// order.
    package func upsertProxiedMVPD(_ entry: ProxiedMVPDRecord, proxy: MVPDRecord, position: Int) async throws {
        let edits = try await first(
            "SELECT operator_display_name, operator_logo_url FROM proxied_mvpds WHERE id = \(bind: entry.id)", as: OperatorEditsRow.self)
        var record = MVPDRecord(
            id: entry.id, displayName: edits?.operatorDisplayName ?? entry.displayName, logoUrl: edits?.operatorLogoUrl ?? entry.logoURL, kind: .saml,
            entityId: entry.entityID,
            ssoUrl: proxy.ssoUrl, sloUrl: proxy.sloUrl, certificates: proxy.certificates, authorizationUrl: proxy.authorizationUrl,
            authorizationKey: proxy.authorizationKey, requiresSafariViewController: proxy.requiresSafariViewController,
            enablePlatformServices: false, displayInPlatformPicker: false, profileTtlSeconds: proxy.profileTtlSeconds,
            encryptedAttributes: proxy.encryptedAttributes)
        record.proxyMvpdId = proxy.id
        try await upsertMVPD(record)
        try await run("UPDATE mvpds SET proxy_mvpd_id = \(bind: proxy.id) WHERE id = \(bind: entry.id)")
        try await run(
            """
            INSERT INTO proxied_mvpds (id, proxy_mvpd_id, provider_id, iframe_height, iframe_width, all_requestors, position, pushed_by, pushed_at,
              pushed_display_name, pushed_logo_url)
            VALUES (\(bind: entry.id), \(bind: proxy.id), \(bind: entry.providerId), \(bind: entry.iframeHeight), \(bind: entry.iframeWidth),
              \(bind: entry.requestorIds == nil ? 1 : 0), \(bind: position), \(bind: entry.pushedBy), \(bind: entry.pushedAt),
              \(bind: entry.displayName), \(bind: entry.logoURL))
            ON CONFLICT (id) DO UPDATE SET proxy_mvpd_id = excluded.proxy_mvpd_id, provider_id = excluded.provider_id,
              pushed_display_name = excluded.pushed_display_name, pushed_logo_url = excluded.pushed_logo_url,
              iframe_height = excluded.iframe_height, iframe_width = excluded.iframe_width, all_requestors = excluded.all_requestors,
              position = excluded.position, pushed_by = excluded.pushed_by, pushed_at = excluded.pushed_at
            """)
        try await run("DELETE FROM proxied_mvpd_requestors WHERE mvpd_id = \(bind: entry.id)")
        for requestor in entry.requestorIds ?? [] {
            try await run(
                """
                INSERT INTO proxied_mvpd_requestors (mvpd_id, requestor_id) VALUES (\(bind: entry.id), \(bind: requestor))
                ON CONFLICT (mvpd_id, requestor_id) DO NOTHING
                """)
        }
        try await catalogChanged()
    }

    /// Forgets a proxied MVPD's push record (its MVPD row is removed with ``CatalogAdminStore/deleteMVPD(id:)``).
    package func deleteProxiedMVPD(id: String) async throws {
        try await run("DELETE FROM proxied_mvpd_requestors WHERE mvpd_id = \(bind: id)")
        try await run("DELETE FROM proxied_mvpds WHERE id = \(bind: id)")
        try await catalogChanged()
    }

    private struct OperatorEditsRow: Decodable {
        var operatorDisplayName: String?
        var operatorLogoUrl: String?
    }

    /// Sets the display name and logo an operator gives a proxied MVPD instead of the pushed ones (nil: the pushed one),
    /// and what its MVPD row shows.
    package func setProxiedMVPDEdits(id: String, displayName: String?, logoURL: String?) async throws {
        try await run(
            """
            UPDATE proxied_mvpds SET operator_display_name = \(bind: displayName), operator_logo_url = \(bind: logoURL) WHERE id = \(bind: id)
            """)
        try await run(
            """
            UPDATE mvpds SET
              display_name = COALESCE(\(bind: displayName), (SELECT x.pushed_display_name FROM proxied_mvpds x WHERE x.id = mvpds.id), display_name),
              logo_url = COALESCE(\(bind: logoURL), (SELECT x.pushed_logo_url FROM proxied_mvpds x WHERE x.id = mvpds.id), logo_url)
            WHERE id = \(bind: id)
            """)
        try await catalogChanged()
    }

    /// The integrations of proxied MVPDs that come from their proxy's pushes and that no operator recorded (an operator's
    /// `integration enable`/`disable` of the same pair wins): the pushed `requestorIds`, or for a proxied MVPD pushed
    /// without them, every integration of its proxy; of one MVPD, or of every proxied MVPD when nil.
    package func pushedIntegrations(mvpd: String?) async throws -> [IntegrationRecord] {
        let condition: SQLQueryString = mvpd.map { "AND p.mvpd_id = \(bind: $0)" } ?? ""
        return try await all(
            """
            SELECT p.requestor_id, p.mvpd_id, p.enabled, o.display_name, o.logo_url, o.profile_ttl_seconds FROM (
              SELECT pr.requestor_id, pr.mvpd_id, CAST(1 AS BIGINT) AS enabled FROM proxied_mvpd_requestors pr
              UNION ALL
              SELECT pi.requestor_id, x.id AS mvpd_id, pi.enabled FROM proxied_mvpds x JOIN integrations pi ON pi.mvpd_id = x.proxy_mvpd_id
              WHERE x.all_requestors = 1
            ) p
            LEFT JOIN integration_overrides o ON o.requestor_id = p.requestor_id AND o.mvpd_id = p.mvpd_id
            WHERE NOT EXISTS (SELECT 1 FROM integrations e WHERE e.requestor_id = p.requestor_id AND e.mvpd_id = p.mvpd_id)
            """ + " " + condition + " ORDER BY p.requestor_id, p.mvpd_id", as: IntegrationRecord.self)
    }
}
