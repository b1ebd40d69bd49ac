import EntitleModel
import SQLKit

/// The reports' trace of an MVPD user: `report_accounts` keeps, per report row and minute, a pseudonymous account (the
/// first 8 bytes of SHA-256 over the MVPD id and the user id, `ReportAccount`) to count distinct users. A privacy
/// request about a user finds those rows here; an erase unlinks them (`ReportStore.unlinkReportAccount`).
extension PrivacyStore {
    /// Every MVPD id of the catalog (a user's account is derived per MVPD, whether or not a profile is left).
    package func mvpdIDs() async throws -> [String] {
        try await strings("SELECT id FROM mvpds ORDER BY id", "id")
    }

    /// The report rows (minute and row key) that count one of `accounts`.
    package func reportAccountRows(_ accounts: [Int64]) async throws -> PrivacyTableRows {
        var rows: [[String: PrivacyValue]] = []
        if !accounts.isEmpty {
            let found = try await sql.raw(
                "SELECT minute, row_key FROM report_accounts WHERE account IN (\(binds: accounts)) ORDER BY minute, row_key"
            ).all()
            rows = try found.map {
                [
                    "minute": .integer(try $0.decode(column: "minute", as: Int64.self)),
                    "row_key": .integer(try $0.decode(column: "row_key", as: Int64.self)),
                ]
            }
        }
        return PrivacyTableRows(
            table: "report_accounts",
            holds: "report rows (minutes) that count the user among their distinct accounts (a SHA-256 of MVPD and user id)",
            rows: rows)
    }
}
