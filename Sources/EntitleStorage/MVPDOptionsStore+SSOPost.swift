import EntitleModel
import SQLKit

extension MVPDOptionsStore {
    /// Records (or, with nil, forgets) the HTTP-POST single sign-on URL of an MVPD.
    package func setSSOPostLocation(mvpd: String, location: String?) async throws {
        guard let location else {
            try await run("DELETE FROM mvpd_sso_post WHERE mvpd_id = \(bind: mvpd)")
            return
        }
        try await run(
            """
            INSERT INTO mvpd_sso_post (mvpd_id, location) VALUES (\(bind: mvpd), \(bind: location))
            ON CONFLICT (mvpd_id) DO UPDATE SET location = excluded.location
            """)
    }

    /// The HTTP-POST single sign-on URL of an MVPD, when its metadata offers one.
    package func ssoPostLocation(mvpd: String) async throws -> String? {
        try await sql.raw("SELECT location FROM mvpd_sso_post WHERE mvpd_id = \(bind: mvpd)").first()?.decode(column: "location", as: String.self)
    }
}
