/// An integration of an MVPD with a requestor, enabled or not.
package struct IntegrationRecord: Codable, Sendable, Equatable {
    /// Requestor id.
    package var requestorId: String
    /// MVPD id.
    package var mvpdId: String
    /// 1 when enabled.
    package var enabled: Int64
    /// Display name shown for this requestor instead of the MVPD's.
    package var displayName: String? = nil
    /// Logo URL shown for this requestor instead of the MVPD's.
    package var logoUrl: String? = nil
    /// Profile lifetime for this requestor instead of the MVPD's, seconds.
    package var profileTtlSeconds: Int64? = nil

    /// Creates the value from each of its stored properties.
    package init(
        requestorId: String, mvpdId: String, enabled: Int64, displayName: String? = nil, logoUrl: String? = nil, profileTtlSeconds: Int64? = nil
    ) {
        self.requestorId = requestorId
        self.mvpdId = mvpdId
        self.enabled = enabled
        self.displayName = displayName
        self.logoUrl = logoUrl
        self.profileTtlSeconds = profileTtlSeconds
    }
}
