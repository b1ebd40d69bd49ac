import EntitleCore
import EntitleModel
import EntitleStorage

/// What one instance keeps in memory besides the catalog: per-device rate-limit buckets and MVPD authorization
/// answers. Nothing here is the only copy of any state: a restarted instance starts empty and loses nothing.
package final class ServiceCaches: Sendable {
    /// Per-device token buckets of this instance.
    package let rateLimiter: DeviceRateLimiter
    /// MVPD authorization answers of this instance.
    package let authorizations: AuthorizationCache
    /// Decoded `X-Device-Info` headers.
    package let deviceInfos = DecodedHeaderCache<DecodedDeviceInfo>()
    /// Decoded `AP-Device-Identifier` headers.
    package let deviceIdentifiers = DecodedHeaderCache<DeviceIdentifier>()

    /// Creates empty caches.
    package init(rateLimiter: DeviceRateLimiter = DeviceRateLimiter(), authorizations: AuthorizationCache = AuthorizationCache()) {
        self.rateLimiter = rateLimiter
        self.authorizations = authorizations
    }
}
