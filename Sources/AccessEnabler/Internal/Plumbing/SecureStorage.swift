import Crypto
import Foundation

/// The SDK's view of its ``TokenStore``: JSON values in checksummed envelopes, an index of the keys it wrote (so
/// ``IntegrityCheckType/INTEGRITY_CHECK_CLEAR`` can remove them) and the integrity policy.
struct SecureStorage: Sendable {
    let store: any TokenStore
    let check: IntegrityCheckType
    static let indexKey = "entitle.index"

    private struct Envelope: Codable {
        var v: Int
        var sha256: String
        var data: Data
    }

    init(store: any TokenStore, check: IntegrityCheckType) {
        self.store = store
        self.check = check
    }

    /// Applies the start-up policy: `CLEAR` removes every key the SDK wrote.
    func prepare() async {
        guard check == .INTEGRITY_CHECK_CLEAR else { return }
        for key in await index() { try? await store.remove(key) }
        try? await store.remove(Self.indexKey)
    }

    /// Reads and decodes `key`; damaged or undecodable entries are removed and read as nil.
    func read<T: Decodable>(_ type: T.Type, _ key: String) async -> T? {
        guard let raw = try? await store.load(key) else { return nil }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: raw), envelope.v == 1 else {
            try? await store.remove(key)
            return nil
        }
        if check != .INTEGRITY_CHECK_NONE, Self.digest(envelope.data) != envelope.sha256 {
            try? await store.remove(key)
            return nil
        }
        guard let value = try? JSONDecoder().decode(T.self, from: envelope.data) else {
            try? await store.remove(key)
            return nil
        }
        return value
    }

    /// Encodes and writes `value` under `key`.
    func write<T: Encodable>(_ value: T, _ key: String) async throws {
        let data = try JSONEncoder().encode(value)
        let envelope = try JSONEncoder().encode(Envelope(v: 1, sha256: Self.digest(data), data: data))
        var keys = await index()
        if !keys.contains(key) {
            keys.append(key)
            try await store.save(try JSONEncoder().encode(keys), for: Self.indexKey)
        }
        try await store.save(envelope, for: key)
    }

    /// Removes `key`.
    func remove(_ key: String) async {
        try? await store.remove(key)
    }

    private func index() async -> [String] {
        guard let data = try? await store.load(Self.indexKey) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
