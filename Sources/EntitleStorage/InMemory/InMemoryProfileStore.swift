import EntitleModel
import Synchronization

/// Profiles in memory, for unit tests of domain services without a database; behaves as ``ProfileStore`` does
/// (one profile per requestor, client, device and MVPD; a device's profiles ordered by MVPD).
package final class InMemoryProfileStore: ProfileStoring {
    private struct Key: Hashable {
        let requestor: String
        let client: String
        let device: String
        let mvpd: String
    }

    private let records = Mutex<[Key: ProfileRecord]>([:])
    private let ended = Mutex<[Key: EndedSignInRecord]>([:])

    /// Creates a store holding `profiles`.
    package init(_ profiles: [ProfileRecord] = []) {
        for profile in profiles { records.withLock { $0[Self.key(profile)] = profile } }
    }

    private static func key(_ p: ProfileRecord) -> Key { Key(requestor: p.requestorId, client: p.clientId, device: p.deviceId, mvpd: p.mvpdId) }

    /// Every profile held, ordered by requestor, client, device and MVPD.
    package var all: [ProfileRecord] {
        records.withLock { Array($0.values) }.sorted {
            ($0.requestorId, $0.clientId, $0.deviceId, $0.mvpdId) < ($1.requestorId, $1.clientId, $1.deviceId, $1.mvpdId)
        }
    }

    /// The profiles of a device for a client application and requestor, ordered by MVPD.
    package func profiles(requestor: String, client: String, device: String) async throws -> [ProfileRecord] {
        records.withLock { records in
            records.values.filter { $0.requestorId == requestor && $0.clientId == client && $0.deviceId == device }
        }.sorted { $0.mvpdId < $1.mvpdId }
    }

    /// The profile of a device at one MVPD.
    package func profile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord? {
        records.withLock { $0[Key(requestor: requestor, client: client, device: device, mvpd: mvpd)] }
    }

    /// The profile created by the session with `sessionCode`.
    package func profile(requestor: String, sessionCode: String) async throws -> ProfileRecord? {
        all.first { $0.requestorId == requestor && $0.sessionCode == sessionCode }
    }

    /// Creates or replaces the profile of (requestor, client, device, MVPD).
    package func upsertProfile(_ p: ProfileRecord) async throws {
        records.withLock { $0[Self.key(p)] = p }
        ended.withLock { _ = $0.removeValue(forKey: Self.key(p)) }
    }

    /// Replaces the user metadata of a profile, unless a newer sign-in replaced the profile meanwhile (its `notBefore`
    /// differs).
    package func updateProfileAttributes(_ p: ProfileRecord, attributes: String) async throws {
        records.withLock { records in
            guard var current = records[Self.key(p)], current.notBefore == p.notBefore else { return }
            current.attributes = attributes
            records[Self.key(p)] = current
        }
    }

    /// Deletes the profile of a device at one MVPD (a logout) and returns it; nil when there was none.
    @discardableResult
    package func deleteProfile(requestor: String, client: String, device: String, mvpd: String) -> ProfileRecord? {
        records.withLock { $0.removeValue(forKey: Key(requestor: requestor, client: client, device: device, mvpd: mvpd)) }
    }

    /// Records a sign-in the identity provider ended; replaces an older record of the same key.
    package func recordEndedSignIn(_ e: EndedSignInRecord) async throws {
        ended.withLock { $0[Key(requestor: e.requestorId, client: e.clientId, device: e.deviceId, mvpd: e.mvpdId)] = e }
    }

    /// The device's ended sign-ins that have not expired at `now` (ms), ordered by MVPD.
    package func endedSignIns(requestor: String, client: String, device: String, now: Int64) async throws -> [EndedSignInRecord] {
        ended.withLock { ended in
            ended.values.filter { $0.requestorId == requestor && $0.clientId == client && $0.deviceId == device && $0.expiresAt > now }
        }.sorted { $0.mvpdId < $1.mvpdId }
    }
}
