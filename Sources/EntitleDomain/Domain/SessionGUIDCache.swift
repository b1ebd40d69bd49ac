import EntitleModel
import EntitleStorage

/// The session GUID of a sign-in's media tokens (the first 32 hex digits of a SHA-256 of the sign-in), kept so that
/// each authorize looks it up rather than hashing the sign-in and writing the hex text again. The GUID is a pure
/// function of the sign-in, so a kept one is never stale. Bounded: past `capacity` sign-ins, everything is dropped.
package final class SessionGUIDCache: Sendable {
    private let guids: BoundedMemo<SignInCacheKey, String>

    package init(capacity: Int = 10_000) { guids = BoundedMemo(capacity: capacity) }

    /// The session GUID of `profile`'s sign-in.
    package func guid(for profile: ProfileRecord) -> String {
        let signIn = SignInCacheKey(profile)
        return guids.value(for: signIn) { Self.derive(signIn) }
    }

    /// The GUID itself: the first 32 hex digits of the SHA-256 of the sign-in's fields joined by `|`, taken as bytes (a
    /// `String` prefix walks grapheme clusters).
    package static func derive(_ signIn: SignInCacheKey) -> String {
        let text = [signIn.requestor, signIn.client, signIn.device, signIn.mvpd, String(signIn.notBefore)].joined(separator: "|")
        return String(decoding: Secrets.sha256Hex(text).utf8.prefix(32), as: UTF8.self)
    }

    /// The number of sign-ins kept.
    package var count: Int { guids.count }
}
