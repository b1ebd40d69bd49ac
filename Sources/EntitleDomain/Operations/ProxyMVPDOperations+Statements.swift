import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// The software statement of a proxy's web-service client, for every front end (`entitle admin software-statement
/// create --proxy-mvpd`, `POST /admin/api/software-statements` with `proxyMVPD`): it belongs to no requestor. Its
/// clients register and get access tokens like an app's, but their tokens name no requestor, so every REST API (v2, v1,
/// adobe-services) refuses them; they open the Proxy MVPD Web Service of their proxy only.
extension ProxyMVPDOperations {
    /// Issues and records a statement for `proxy`'s web-service clients (redirect URIs optional: they never sign anyone
    /// in), and lets them push for it; returns its id and JWT.
    package func issueSoftwareStatement(proxy: String, name: String, redirectURIs: [String], actor: String) async throws -> (id: String, jwt: String)
    {
        try OperatorReach.requireServiceWide("proxy MVPDs")
        try await requireProxy(proxy)
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200 else {
            throw AdminError("invalid_value", "the application name must be 1-200 characters")
        }
        for uri in redirectURIs where !RedirectURIPolicy.isAcceptableRegistration(uri) {
            throw AdminError("invalid_value", "redirect URI \(uri) is not an absolute http(s) URL or an app's custom-scheme URI")
        }
        let id = UUID().uuidString.lowercased()
        let issuedAt = Int64(clock.now().timeIntervalSince1970)
        let jwt = try await tokens.sign(
            statement: SoftwareStatementClaims(
                iss: TokenIssuer.issuer, softwareID: id, requestorID: "", clientName: name, redirectURIs: redirectURIs, iat: issuedAt))
        try await clients.insertSoftwareStatement(
            SoftwareStatementRecord(softwareId: id, requestorId: "", name: name, redirectURIs: redirectURIs, issuedAt: issuedAt, revoked: false))
        try await changes.record(
            actor: actor, action: "software-statement.create", target: id,
            after: ["proxyMVPD": proxy, "name": name, "redirectURIs": redirectURIs.joined(separator: " ")])
        try await allowSoftwareStatement(id, proxy: proxy, actor: actor)
        return (id, jwt)
    }
}
