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

    /// Every proxy, by id.
    package func proxies() async throws -> [ProxyMVPDRecord] {
        try await all("SELECT mvpd_id, listed, allowed_addresses FROM mvpd_proxies ORDER BY mvpd_id", as: ProxyRow.self).map {
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
        var allRequestors: Int64
        var pushedBy: String
        var pushedAt: Int64
    }

    /// The proxied MVPDs of a proxy (every one when nil), in the order pushed, with their display name and logo.
    package func proxiedMVPDs(proxy: String?) async throws -> [ProxiedMVPDRecord] {
        let condition: SQLQueryString = proxy.map { "WHERE x.proxy_mvpd_id = \(bind: $0)" } ?? ""
        let rows = try await all(
            """
            SELECT x.id, x.proxy_mvpd_id, x.provider_id, m.display_name, m.logo_url, x.iframe_height, x.iframe_width, x.all_requestors,
              x.pushed_by, x.pushed_at
            FROM proxied_mvpds x JOIN mvpds m ON m.id = x.id
            """ + " " + condition + " ORDER BY x.proxy_mvpd_id, x.position", as: ProxiedRow.self)
        var requestors: [String: [String]] = [:]
        for row in try await sql.raw("SELECT mvpd_id, requestor_id FROM proxied_mvpd_requestors ORDER BY mvpd_id, requestor_id").all() {
            requestors[try row.decode(column: "mvpd_id", as: String.self), default: []].append(
                try row.decode(column: "requestor_id", as: String.self))
        }
        return rows.map {
            ProxiedMVPDRecord(
                id: $0.id, proxyMvpdId: $0.proxyMvpdId, providerId: $0.providerId, displayName: $0.displayName, logoURL: $0.logoUrl,
                iframeHeight: $0.iframeHeight, iframeWidth: $0.iframeWidth, requestorIds: $0.allRequestors != 0 ? nil : requestors[$0.id] ?? [],
                pushedBy: $0.pushedBy, pushedAt: $0.pushedAt)
        }
    }

    /// Records one proxied MVPD pushed by its proxy: its MVPD row (the proxy's SAML settings, the ProviderID as entity
    /// id) and what was pushed. `position` keeps the pushed order.
    package func upsertProxiedMVPD(_ entry: ProxiedMVPDRecord, proxy: MVPDRecord, position: Int) async throws {
        var record = MVPDRecord(
            id: entry.id, displayName: entry.displayName, logoUrl: entry.logoURL, kind: .saml, entityId: entry.entityID,
            ssoUrl: proxy.ssoUrl, sloUrl: proxy.sloUrl, certificates: proxy.certificates, authorizationUrl: proxy.authorizationUrl,
            authorizationKey: proxy.authorizationKey, requiresSafariViewController: proxy.requiresSafariViewController,
            enablePlatformServices: false, displayInPlatformPicker: false, profileTtlSeconds: proxy.profileTtlSeconds,
            encryptedAttributes: proxy.encryptedAttributes)
        record.proxyMvpdId = proxy.id
        try await upsertMVPD(record)
        try await run("UPDATE mvpds SET proxy_mvpd_id = \(bind: proxy.id) WHERE id = \(bind: entry.id)")
        try await run(
            """
            INSERT INTO proxied_mvpds (id, proxy_mvpd_id, provider_id, iframe_height, iframe_width, all_requestors, position, pushed_by, pushed_at)
            VALUES (\(bind: entry.id), \(bind: proxy.id), \(bind: entry.providerId), \(bind: entry.iframeHeight), \(bind: entry.iframeWidth),
              \(bind: entry.requestorIds == nil ? 1 : 0), \(bind: position), \(bind: entry.pushedBy), \(bind: entry.pushedAt))
            ON CONFLICT (id) DO UPDATE SET proxy_mvpd_id = excluded.proxy_mvpd_id, provider_id = excluded.provider_id,
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

    /// Forgets a proxied MVPD's push record (its MVPD row is removed with ``OnboardingStore/deleteMVPD(id:)``).
    package func deleteProxiedMVPD(id: String) async throws {
        try await run("DELETE FROM proxied_mvpd_requestors WHERE mvpd_id = \(bind: id)")
        try await run("DELETE FROM proxied_mvpds WHERE id = \(bind: id)")
        try await catalogChanged()
    }
}
