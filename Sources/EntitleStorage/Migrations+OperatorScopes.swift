/// Migration 117: the scope of an operator account — one row per requestor or MVPD it is limited to
/// (`kind` is `requestor` or `mvpd`). An account without rows is unscoped (it reaches everything, as before scopes).
extension Migrations {
    package static let operatorScopes: [String] = [
        """
        CREATE TABLE IF NOT EXISTS operator_scopes (username TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
          PRIMARY KEY (username, kind, value))
        """
    ]
}
