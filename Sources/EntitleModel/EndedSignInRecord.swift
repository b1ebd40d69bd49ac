/// A sign-in that the identity provider ended, not the device: kept so that the device's next call with it is told
/// that the sign-in was invalidated (Adobe's `authorization_denied_by_session_invalidated`,
/// `authentication_session_invalidated`, `authenticated_profile_invalidated`) instead of that it never signed in. One per
/// (requestor, client, device, MVPD); forgotten when the device signs in again with that MVPD, when the ended sign-in
/// would have expired anyway (`expiresAt`), or at a privacy erase.
package struct EndedSignInRecord: Codable, Sendable, Equatable {
    /// Requestor.
    package var requestorId: String
    /// DCR client (or legacy key) of the device.
    package var clientId: String
    /// The device.
    package var deviceId: String
    /// The MVPD whose sign-in ended.
    package var mvpdId: String
    /// The MVPD's user id of the ended sign-in (so that a privacy request by user id finds the record).
    package var userId: String
    /// Why it ended, for the log and the error details: ``Reason``.
    package var reason: String
    /// When it ended, ms.
    package var endedAt: Int64
    /// When the ended sign-in would have expired, ms: the record is not used, and is purged, after it.
    package var expiresAt: Int64

    /// Why a sign-in was ended by someone other than the device.
    package enum Reason {
        /// An OAuth 2.0 MVPD refused the sign-in's refresh token (`invalid_grant`): the MVPD revoked the grant.
        package static let refreshTokenRevoked = "refresh_token_revoked"
    }

    /// Creates the value from each of its stored properties.
    package init(
        requestorId: String, clientId: String, deviceId: String, mvpdId: String, userId: String, reason: String, endedAt: Int64,
        expiresAt: Int64
    ) {
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.userId = userId
        self.reason = reason
        self.endedAt = endedAt
        self.expiresAt = expiresAt
    }
}
