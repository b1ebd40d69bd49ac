import EntitleCore
import EntitleModel
import EntitleStorage

extension KeyOperations {
    /// Refuses a media-token key that would sign before every verifier can have fetched it (video servers cache
    /// `/keys/media-token` for ``ServiceKeys/verifierCacheSeconds``), unless `force` (an emergency rotation).
    /// Other purposes are not checked.
    package static func checkPromotion(purpose: KeyPurpose, promoteAfterSeconds: Int64?, force: Bool) throws {
        guard purpose.isMediaToken, let promoteAfterSeconds, promoteAfterSeconds < ServiceKeys.verifierCacheSeconds, !force else { return }
        throw AdminError(
            "promotion_too_soon",
            "a delay of \(promoteAfterSeconds) s is shorter than the \(ServiceKeys.verifierCacheSeconds) s video servers cache /keys/media-token: "
                + "media tokens signed with the new key would be refused until they fetch it again. Use at least "
                + "\(ServiceKeys.verifierCacheSeconds), or force it for an emergency rotation")
    }
}
