import EntitleModel
import EntitleStorage

/// A sign-in as the in-memory caches key it: the requestor, client, device and MVPD of a profile and the time it was
/// made. A new sign-in on the same device has another `notBefore`, so nothing kept for the old one is reused.
package struct SignInCacheKey: Hashable, Sendable {
    package let requestor: String
    package let client: String
    package let device: String
    package let mvpd: String
    package let notBefore: Int64

    /// The sign-in of `profile`, for `requestor` (by default the profile's own).
    package init(_ profile: ProfileRecord, requestor: String? = nil) {
        (self.requestor, client, device, mvpd, notBefore) =
            (requestor ?? profile.requestorId, profile.clientId, profile.deviceId, profile.mvpdId, profile.notBefore)
    }
}
