/// A Promotional TempPass: one per identity or device ("existing identity or existing device ⇒ existing pass").
package struct PromoPassRecord: Codable, Sendable, Equatable {
    /// Pass id.
    package var passKey: String
    /// Requestor.
    package var requestorId: String
    /// TempPass MVPD.
    package var mvpdId: String
    /// Hash of the identity.
    package var identityKey: String
    /// Hash of the device.
    package var deviceKey: String
    /// Start, ms.
    package var startedAt: Int64
    /// End, ms.
    package var expiresAt: Int64

    /// Creates the value from each of its stored properties.
    package init(passKey: String, requestorId: String, mvpdId: String, identityKey: String, deviceKey: String, startedAt: Int64, expiresAt: Int64) {
        self.passKey = passKey
        self.requestorId = requestorId
        self.mvpdId = mvpdId
        self.identityKey = identityKey
        self.deviceKey = deviceKey
        self.startedAt = startedAt
        self.expiresAt = expiresAt
    }
}
