/// An AuthN token handed to an adobe-services client: its GUID names the profile it was issued for.
package struct AdobeTokenRecord: Codable, Sendable, Equatable {
    /// `simpleTokenAuthenticationGuid` (random, 32 hex).
    package var guid: String
    /// Requestor.
    package var requestorId: String
    /// Client application.
    package var clientId: String
    /// Device.
    package var deviceId: String
    /// MVPD.
    package var mvpdId: String
    /// `notBefore` of the profile: a new sign-in makes older tokens stale.
    package var profileNotBefore: Int64
    /// Expiry (the profile's), ms.
    package var expiresAt: Int64

    /// Creates the value from each of its stored properties.
    package init(guid: String, requestorId: String, clientId: String, deviceId: String, mvpdId: String, profileNotBefore: Int64, expiresAt: Int64) {
        self.guid = guid
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.profileNotBefore = profileNotBefore
        self.expiresAt = expiresAt
    }
}
