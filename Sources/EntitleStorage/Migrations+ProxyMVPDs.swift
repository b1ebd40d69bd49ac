/// Migration 116 (issue 40): proxy MVPDs and the proxied MVPDs they push through the Proxy MVPD Web Service.
///
/// A proxied MVPD is an `mvpds` row of its own (so sign-ins, decisions, media tokens and reports name it) whose
/// `proxy_mvpd_id` names its proxy; its SAML settings are the proxy's (copied on every push and on every change of the
/// proxy) and its entity id is the pushed `ProviderID` (else its id). `mvpd_proxies` marks an MVPD as a proxy (`listed`:
/// it is also an MVPD in its own right, shown in its requestors' pickers; `allowed_addresses`: a JSON array of the CIDR
/// ranges pushes may come from, empty: any). `proxy_software_statements` names the software statements whose clients
/// may push for a proxy. `proxied_mvpds` keeps what was pushed (`all_requestors`: pushed without `requestorIds`, so
/// integrated with every requestor the proxy is integrated with), `proxied_mvpd_requestors` the pushed `requestorIds`.
extension Migrations {
    package static let proxyMVPDs: [String] = [
        "ALTER TABLE mvpds ADD COLUMN proxy_mvpd_id TEXT",
        """
        CREATE TABLE IF NOT EXISTS mvpd_proxies (mvpd_id TEXT PRIMARY KEY, listed BIGINT NOT NULL DEFAULT 0,
          allowed_addresses TEXT NOT NULL, updated_at BIGINT NOT NULL)
        """,
        "CREATE TABLE IF NOT EXISTS proxy_software_statements (software_id TEXT PRIMARY KEY, proxy_mvpd_id TEXT NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS proxied_mvpds (id TEXT PRIMARY KEY, proxy_mvpd_id TEXT NOT NULL, provider_id TEXT,
          iframe_height BIGINT, iframe_width BIGINT, all_requestors BIGINT NOT NULL, position BIGINT NOT NULL,
          pushed_by TEXT NOT NULL, pushed_at BIGINT NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS proxied_mvpds_proxy ON proxied_mvpds (proxy_mvpd_id, position)",
        """
        CREATE TABLE IF NOT EXISTS proxied_mvpd_requestors (mvpd_id TEXT NOT NULL, requestor_id TEXT NOT NULL,
          PRIMARY KEY (mvpd_id, requestor_id))
        """,
    ]
}
