import EntitleCore
import EntitleModel
import SQLKit

extension CatalogStore {
    /// The authorization protocol of an MVPD (`entitle-json` unless configured), from the catalog cache.
    package func authorizationProtocol(mvpd: String) async throws -> MVPDAuthorizationProtocol {
        let records = try await cached(catalogCache.authorizationProtocols, .table) {
            try await all("SELECT * FROM mvpd_authorization_protocols", as: MVPDAuthorizationProtocolRecord.self)
        }
        return records.first { $0.mvpdId == mvpd }.flatMap { MVPDAuthorizationProtocol(rawValue: $0.authorizationProtocol) } ?? .entitleJSON
    }

    /// Sets the authorization protocol of an MVPD (the default removes the row).
    package func setAuthorizationProtocol(mvpd: String, _ value: MVPDAuthorizationProtocol) async throws {
        if value == .entitleJSON {
            try await run("DELETE FROM mvpd_authorization_protocols WHERE mvpd_id = \(bind: mvpd)")
        } else {
            try await run(
                """
                INSERT INTO mvpd_authorization_protocols (mvpd_id, authorization_protocol) VALUES (\(bind: mvpd), \(bind: value.rawValue))
                ON CONFLICT (mvpd_id) DO UPDATE SET authorization_protocol = excluded.authorization_protocol
                """)
        }
        try await catalogChanged()
    }
}
