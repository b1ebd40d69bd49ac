import EntitleModel
import EntitleStorage
import Synchronization

/// Access tokens whose signature this instance already checked, so a device's repeated calls cost a lookup instead
/// of an ECDSA verification. Keyed by the exact token text (``TokenKey``); an entry belongs to one catalog generation (a key
/// rotation or any catalog change drops them all). Expiry and the client's approval are still checked on every call.
/// Bounded: past `capacity` tokens, everything is dropped.
package final class VerifiedTokenCache: Sendable {
    package struct State: Sendable {
        package var generation: UInt64 = 0
        package var claims: [TokenKey: AccessTokenClaims] = [:]

        /// Creates the value from each of its stored properties.
        package init(generation: UInt64 = 0, claims: [TokenKey: AccessTokenClaims] = [:]) {
            self.generation = generation
            self.claims = claims
        }
    }

    /// A token as a key: equal when the whole text is equal, hashed over its last bytes only. Those are its signature,
    /// random for every token, so hashing them spreads the keys as well as hashing the whole ~700-byte token, at a
    /// tenth of the cost. Only verified tokens are ever stored, so nobody can fill a bucket with chosen tails.
    package struct TokenKey: Hashable, Sendable {
        package let token: String
        package static let hashedBytes = 48

        package func hash(into hasher: inout Hasher) {
            var token = token
            token.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0).suffix(Self.hashedBytes))) }
        }

        /// Creates the value from each of its stored properties.
        package init(token: String) {
            self.token = token
        }
    }

    package let capacity: Int
    private let state = Mutex(State())

    package init(capacity: Int = 100_000) { self.capacity = capacity }

    /// The claims of a token verified under `generation`, if any.
    package func claims(for token: String, generation: UInt64) -> AccessTokenClaims? {
        state.withLock { $0.generation == generation ? $0.claims[TokenKey(token: token)] : nil }
    }

    /// Remembers a verified token.
    package func remember(_ token: String, claims: AccessTokenClaims, generation: UInt64) {
        state.withLock { state in
            if state.generation != generation {
                state.generation = generation
                state.claims.removeAll(keepingCapacity: true)
            }
            if state.claims.count >= capacity { state.claims.removeAll(keepingCapacity: true) }
            state.claims[TokenKey(token: token)] = claims
        }
    }
}
