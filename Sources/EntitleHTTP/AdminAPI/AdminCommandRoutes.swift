/// Every `entitle admin` command and the admin API route that does the same through the same operation, in one place.
/// `AdminCommandRoutesTests` reads the CLI's own command tree (the built binary's help dump) and fails when a command
/// is missing here, or when a route named here is not served or not in `/openapi.json`; `docs/operator-guide.md`
/// shows this table.
package enum AdminCommandRoutes {
    /// Where a command's operation is in the admin API.
    package enum Route: Sendable, Equatable {
        /// `METHOD /admin/api/...` (path parameters as `{name}`, as in the OpenAPI document).
        case api(String)
        /// Not an operation of a running service, with the reason (file-level work on the host).
        case hostOnly(String)
    }

    /// `command path after "entitle admin"` → its route. Commands that only read map to their `GET` route too.
    package static let all: [String: Route] = [
        "software-statement create": .api("POST /admin/api/software-statements"),
        "software-statement list": .api("GET /admin/api/software-statements"),
        "software-statement revoke": .api("POST /admin/api/software-statements/{id}/revoke"),
        "client list": .api("GET /admin/api/clients"),
        "client revoke": .api("POST /admin/api/clients/{id}/revoke"),
        "requestor add": .api("POST /admin/api/requestors"),
        "requestor update": .api("PUT /admin/api/requestors/{id}"),
        "requestor list": .api("GET /admin/api/requestors"),
        "requestor show": .api("GET /admin/api/requestors/{id}"),
        "requestor disable": .api("POST /admin/api/requestors/{id}/disable"),
        "requestor enable": .api("POST /admin/api/requestors/{id}/enable"),
        "requestor set-media-token-algorithm": .api("PUT /admin/api/requestors/{id}/media-token-algorithm"),
        "requestor media-token-algorithms": .api("GET /admin/api/media-token-algorithms"),
        "mvpd add": .api("POST /admin/api/mvpds"),
        "mvpd update": .api("PATCH /admin/api/mvpds/{id}"),
        "mvpd show": .api("GET /admin/api/mvpds/{id}"),
        "mvpd list": .api("GET /admin/api/mvpds"),
        "mvpd disable": .api("POST /admin/api/mvpds/{id}/disable"),
        "mvpd enable": .api("POST /admin/api/mvpds/{id}/enable"),
        "mvpd remove": .api("DELETE /admin/api/mvpds/{id}"),
        "mvpd refresh": .api("POST /admin/api/metadata-refresh"),
        "integration enable": .api("PUT /admin/api/integrations/{requestor}/{mvpd}"),
        "integration disable": .api("PUT /admin/api/integrations/{requestor}/{mvpd}"),
        "integration set": .api("PUT /admin/api/integrations/{requestor}/{mvpd}"),
        "integration list": .api("GET /admin/api/integrations"),
        "keys list": .api("GET /admin/api/keys"),
        "keys rotate": .api("POST /admin/api/keys/{purpose}/rotate"),
        "degradation set": .api("POST /admin/api/degradation-rules"),
        "degradation list": .api("GET /admin/api/degradation-rules"),
        "degradation remove": .api("DELETE /admin/api/degradation-rules/{requestor}/{mvpd}/{rule}"),
        "temppass add": .api("POST /admin/api/temppass"),
        "temppass reset": .api("POST /admin/api/temppass/reset"),
        "cache flush": .api("POST /admin/api/cache/flush"),
        "authz-ttl set": .api("PUT /admin/api/authorization-ttls"),
        "authz-ttl list": .api("GET /admin/api/authorization-ttls"),
        "legacy-key create": .api("POST /admin/api/legacy-keys"),
        "legacy-key list": .api("GET /admin/api/legacy-keys"),
        "legacy-key revoke": .api("POST /admin/api/legacy-keys/revoke"),
        "changes list": .api("GET /admin/api/changes"),
        "operator add": .api("POST /admin/api/operators"),
        "operator list": .api("GET /admin/api/operators"),
        "operator scope": .api("PUT /admin/api/operators/{username}/scope"),
        "operator disable": .api("POST /admin/api/operators/{username}/disable"),
        "operator enable": .api("POST /admin/api/operators/{username}/enable"),
        "operator password": .api("PUT /admin/api/operators/{username}/password"),
        "operator unlock": .api("POST /admin/api/operators/{username}/unlock"),
        "operator remove": .api("DELETE /admin/api/operators/{username}"),
        "report": .api("GET /admin/api/v1/reports"),
        "sso add": .api("POST /admin/api/sso-issuers"),
        "sso list": .api("GET /admin/api/sso-issuers"),
        "sso remove": .api("DELETE /admin/api/sso-issuers/{id}"),
        "catalog export": .api("GET /admin/api/catalog"),
        "catalog apply": .api("POST /admin/api/catalog/apply"),
        "privacy export": .api("POST /admin/api/privacy/export"),
        "privacy erase": .api("POST /admin/api/privacy/erase"),
        "backup": .hostOnly("copies the SQLite database file on the service's host (PostgreSQL: pg_dump)"),
        "restore": .hostOnly("replaces the SQLite database file while the service is stopped (PostgreSQL: pg_restore)"),
        "schema": .hostOnly("reads the database's migrations before any service opens it"),
    ]

    /// Routes that have no command of their own: Adobe's shapes and the rotation dry run.
    package static let apiOnly: [String: String] = [
        "DELETE /admin/api/reset-tempass/v3/reset": "Adobe's Reset TempPass API (a device or all): `temppass reset --device`/`--all`",
        "DELETE /admin/api/reset-tempass/v3/reset/generic": "Adobe's Reset TempPass API (an identity or all): `temppass reset --identity`",
        "GET /admin/api/keys/{purpose}/rotation": "what a rotation affects: `keys rotate --dry-run`",
    ]
}
