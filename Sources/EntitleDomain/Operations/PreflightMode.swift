import EntitleModel
import EntitleStorage

/// How preauthorize is answered for an integration (notes §3): from the lineup of the sign-in, or by asking the MVPD.
package enum PreflightMode: String, Sendable, CaseIterable {
    /// From the channel lineup the MVPD's assertion carried (no MVPD call).
    case lineup
    /// By asking the MVPD (in one call per `preflightMaxResources`, or one call per resource).
    case mvpd
}
