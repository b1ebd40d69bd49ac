/// The refresh token of one OAuth 2.0 profile (requestor, client, device, MVPD), encrypted; never sent to a client.
package struct OAuth2GrantRecord: Codable, Sendable, Equatable {
    /// Requestor.
    package var requestorId: String
    /// Client application.
    package var clientId: String
    /// Device.
    package var deviceId: String
    /// MVPD.
    package var mvpdId: String
    /// The refresh token, encrypted (``TokenCipher``).
    package var refreshToken: String
    /// The `notBefore` of the profile it belongs to (a newer sign-in replaces it).
    package var profileNotBefore: Int64
    /// Last change, ms.
    package var updatedAt: Int64

    /// Creates the value from each of its stored properties.
    package init(
        requestorId: String, clientId: String, deviceId: String, mvpdId: String, refreshToken: String, profileNotBefore: Int64, updatedAt: Int64
    ) {
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.refreshToken = refreshToken
        self.profileNotBefore = profileNotBefore
        self.updatedAt = updatedAt
    }
}
