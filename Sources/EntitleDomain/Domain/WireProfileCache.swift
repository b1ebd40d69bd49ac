import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Profiles already turned into their wire form, so that a device asking for its profiles again gets the same answer
/// without decoding its metadata and encrypting it with RSA-OAEP once more.
///
/// An entry holds for one stored profile (its device, MVPD, sign-in time and metadata text, compared on every use)
/// under one catalog generation (a new requestor certificate or MVPD setting drops it); an encrypted value is reused
/// only for the same profile, never across users. Expiry is checked by the caller on every use.
package final class WireProfileCache: Sendable {
    package struct Key: Hashable, Sendable {
        package let generation: UInt64
        package let signIn: SignInCacheKey

        /// Creates the value from each of its stored properties.
        package init(generation: UInt64, signIn: SignInCacheKey) {
            self.generation = generation
            self.signIn = signIn
        }
    }

    package struct Entry: Sendable {
        package let attributes: String
        package let profile: WireProfile

        /// Creates the value from each of its stored properties.
        package init(attributes: String, profile: WireProfile) {
            self.attributes = attributes
            self.profile = profile
        }
    }

    private let entries: BoundedMemo<Key, Entry>

    package init(capacity: Int = 100_000) { entries = BoundedMemo(capacity: capacity) }

    package static func key(_ record: ProfileRecord, requestor: String, generation: UInt64) -> Key {
        Key(generation: generation, signIn: SignInCacheKey(record, requestor: requestor))
    }

    /// The wire form of `record` made earlier, if any.
    package func lookup(_ record: ProfileRecord, requestor: String, generation: UInt64) -> WireProfile? {
        let key = Self.key(record, requestor: requestor, generation: generation)
        guard let entry = entries.value(for: key), entry.attributes == record.attributes else { return nil }
        return entry.profile
    }

    /// Keeps the wire form of `record`.
    package func store(_ profile: WireProfile, for record: ProfileRecord, requestor: String, generation: UInt64) {
        let key = Self.key(record, requestor: requestor, generation: generation)
        entries.keep(Entry(attributes: record.attributes, profile: profile), for: key)
    }
}

/// A profile in wire form with its JSON, encoded once (`JSONCoding.encode`, byte for byte).
package struct WireProfile: Sendable {
    package let profile: Profile
    package let json: Data

    package init(_ profile: Profile) {
        self.profile = profile
        json = JSONCoding.encode(profile)
    }
}
