import EntitleCore
import Foundation

/// Profiles already turned into their wire form, so that a device asking for its profiles again gets the same answer
/// without decoding its metadata and encrypting it with RSA-OAEP once more.
///
/// An entry holds for one stored profile (its device, MVPD, sign-in time and metadata text, compared on every use)
/// under one catalog generation (a new requestor certificate or MVPD setting drops it); an encrypted value is reused
/// only for the same profile, never across users. Expiry is checked by the caller on every use.
final class WireProfileCache: Sendable {
    struct Key: Hashable, Sendable {
        let generation: UInt64
        let signIn: SignInKey
    }

    struct Entry: Sendable {
        let attributes: String
        let profile: WireProfile
    }

    private let entries: BoundedMemo<Key, Entry>

    init(capacity: Int = 100_000) { entries = BoundedMemo(capacity: capacity) }

    static func key(_ record: ProfileRecord, requestor: String, generation: UInt64) -> Key {
        Key(generation: generation, signIn: SignInKey(record, requestor: requestor))
    }

    /// The wire form of `record` made earlier, if any.
    func lookup(_ record: ProfileRecord, requestor: String, generation: UInt64) -> WireProfile? {
        let key = Self.key(record, requestor: requestor, generation: generation)
        guard let entry = entries.value(for: key), entry.attributes == record.attributes else { return nil }
        return entry.profile
    }

    /// Keeps the wire form of `record`.
    func store(_ profile: WireProfile, for record: ProfileRecord, requestor: String, generation: UInt64) {
        let key = Self.key(record, requestor: requestor, generation: generation)
        entries.keep(Entry(attributes: record.attributes, profile: profile), for: key)
    }
}

/// A profile in wire form with its JSON, encoded once (`JSONCoding.encode`, byte for byte).
struct WireProfile: Sendable {
    let profile: Profile
    let json: Data

    init(_ profile: Profile) {
        self.profile = profile
        json = JSONCoding.encode(profile)
    }
}
