import Synchronization

/// Access tokens whose signature this instance already checked, so a device's repeated calls cost a lookup instead
/// of an ECDSA verification. Keyed by the exact token text; an entry belongs to one catalog generation (a key
/// rotation or any catalog change drops them all). Expiry and the client's approval are still checked on every call.
/// Bounded: past `capacity` tokens, everything is dropped.
final class VerifiedTokenCache: Sendable {
    struct State: Sendable {
        var generation: UInt64 = 0
        var claims: [String: AccessTokenClaims] = [:]
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 100_000) { self.capacity = capacity }

    /// The claims of a token verified under `generation`, if any.
    func claims(for token: String, generation: UInt64) -> AccessTokenClaims? {
        state.withLock { $0.generation == generation ? $0.claims[token] : nil }
    }

    /// Remembers a verified token.
    func remember(_ token: String, claims: AccessTokenClaims, generation: UInt64) {
        state.withLock { state in
            if state.generation != generation {
                state.generation = generation
                state.claims.removeAll(keepingCapacity: true)
            }
            if state.claims.count >= capacity { state.claims.removeAll(keepingCapacity: true) }
            state.claims[token] = claims
        }
    }
}
