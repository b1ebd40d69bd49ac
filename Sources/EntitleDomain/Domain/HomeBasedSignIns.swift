import EntitleCore
import EntitleModel
import EntitleStorage

/// Home-based authentication (HBA): the MVPD signs a subscriber in without credentials because the device is on the
/// subscriber's home network, and says so with the user metadata `hba_status` (a SAML attribute or an OAuth 2.0 claim,
/// under that name or mapped to it by the MVPD's attribute mapping). An integration's ``HBAPolicy`` gives such sign-ins
/// their own lifetime and names resources they are never authorized for (`authorization_denied_by_hba_policies`).
package enum HomeBasedSignIns {
    /// Whether the (mapped) user metadata of a sign-in says it was home-based.
    package static func isHomeBased(_ metadata: [String: JSONValue]) -> Bool {
        switch metadata[ProfileRecord.homeBasedAttribute] {
        case .bool(let flag)?: return flag
        case .number(let number)?: return number == 1
        case .string(let text)?: return ProfileRecord.isHomeBased([text])
        case .array(let items)?: return ProfileRecord.isHomeBased(items.compactMap(\.stringValue))
        default: return false
        }
    }

    /// How long a sign-in to `mvpd` for `requestor` lasts, in seconds: a home-based one as long as the integration's
    /// HBA policy says where it sets a lifetime; every other as ``CatalogReading/profileLifetimeSeconds(requestor:mvpd:)``.
    package static func lifetimeSeconds(
        requestor: String, mvpd: MVPDRecord, homeBased: Bool, catalog: some CatalogReading, options: some MVPDOptionsReading
    ) async throws -> Int64 {
        if homeBased, let seconds = try await options.hbaPolicy(requestor: requestor, mvpd: mvpd.id)?.profileTTLSeconds {
            return seconds
        }
        return try await catalog.profileLifetimeSeconds(requestor: requestor, mvpd: mvpd)
    }
}
