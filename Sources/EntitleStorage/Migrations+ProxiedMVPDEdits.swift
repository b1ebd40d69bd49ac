/// Migration 119: a proxied MVPD's display name and logo as its proxy pushed them, and as an operator changed them.
///
/// The `mvpds` row of a proxied MVPD holds what apps are shown: the operator's name or logo where one is set, else the
/// pushed one. The proxy's pushes write only the `pushed_` columns (and the `mvpds` row from them where the operator set
/// nothing), so an operator's change stays until the operator takes it back or the proxy stops listing the MVPD.
/// Proxied MVPDs pushed before this migration take their current name and logo as the pushed ones.
extension Migrations {
    package static let proxiedMVPDEdits: [String] = [
        "ALTER TABLE proxied_mvpds ADD COLUMN pushed_display_name TEXT",
        "ALTER TABLE proxied_mvpds ADD COLUMN pushed_logo_url TEXT",
        "ALTER TABLE proxied_mvpds ADD COLUMN operator_display_name TEXT",
        "ALTER TABLE proxied_mvpds ADD COLUMN operator_logo_url TEXT",
        """
        UPDATE proxied_mvpds SET pushed_display_name = (SELECT m.display_name FROM mvpds m WHERE m.id = proxied_mvpds.id),
          pushed_logo_url = (SELECT m.logo_url FROM mvpds m WHERE m.id = proxied_mvpds.id)
        """,
    ]
}
