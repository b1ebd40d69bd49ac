import EntitleModel
import Synchronization

/// The profiles of signed-in devices held in memory by one instance, so profile reads and cached decisions need no
/// database query.
///
/// A change made through this instance (sign-in, logout) evicts its device at once. A change made by another
/// instance or process reaches this one within ``bound``: every profile write also records its device in
/// `profile_changes` (and, on PostgreSQL, sends a `NOTIFY` that evicts the device within milliseconds). Before an
/// entry is used, the changes since the last poll are read when that poll is older than ``bound``, and the devices
/// they name are evicted. An entry loaded while an eviction happened is not kept (a generation counter), and no entry
/// is used after ``maxAge`` whatever the feed says. Expiry is checked by the readers on every use (`notAfter`).
package final class ProfileCache: Sendable {
    /// The default bound on how long a change made elsewhere stays unseen.
    package static let defaultBound: Duration = .milliseconds(250)
    /// The default number of devices kept.
    package static let defaultCapacity = 250_000

    /// One device's profiles for one client application of one requestor.
    package struct DeviceKey: Hashable, Sendable {
        package let requestor: String
        package let client: String
        package let device: String

        /// The key as sent in a change notification (fields joined by a newline, which no id may contain).
        package var payload: String { requestor + "\n" + client + "\n" + device }

        package init(requestor: String, client: String, device: String) {
            self.requestor = requestor
            self.client = client
            self.device = device
        }

        package init?(payload: String) {
            let parts = payload.split(separator: "\n", omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            self.init(requestor: String(parts[0]), client: String(parts[1]), device: String(parts[2]))
        }
    }

    package struct Entry: Sendable {
        package let profiles: [ProfileRecord]
        package let loadedAt: ContinuousClock.Instant

        /// Creates the value from each of its stored properties.
        package init(profiles: [ProfileRecord], loadedAt: ContinuousClock.Instant) {
            self.profiles = profiles
            self.loadedAt = loadedAt
        }
    }

    package struct State: Sendable {
        package var entries: [DeviceKey: Entry] = [:]
        package var generation: UInt64 = 0
        /// The last `profile_changes` sequence number read (polled feed), nil before the first poll.
        package var lastSequence: Int64?
        package var polledAt: ContinuousClock.Instant?
        package var polling = false
        /// Whether the notification feed is connected (notified feed); nothing is cached while it is not.
        package var listening = false

        /// Creates the value from each of its stored properties.
        package init(
            entries: [DeviceKey: Entry] = [:], generation: UInt64 = 0, lastSequence: Int64? = nil, polledAt: ContinuousClock.Instant? = nil,
            polling: Bool = false, listening: Bool = false
        ) {
            self.entries = entries
            self.generation = generation
            self.lastSequence = lastSequence
            self.polledAt = polledAt
            self.polling = polling
            self.listening = listening
        }
    }

    /// How this instance learns of changes made elsewhere.
    package enum ChangeFeed: Sendable {
        /// `profile_changes`, written by triggers, read every ``ProfileCache/bound`` (SQLite).
        case polled
        /// `NOTIFY entitle_profiles`, sent by a trigger in the writing transaction (PostgreSQL); while the listening
        /// connection is down nothing is cached.
        case notified
    }

    /// The change feed.
    package let feed: ChangeFeed
    /// How long a change made elsewhere may stay unseen (the polling interval of the change feed).
    package let bound: Duration
    /// How long an entry is used at most, even when no change was seen for its device.
    package let maxAge: Duration
    /// Devices kept at most; when full, a tenth is dropped (stale entries first).
    package let capacity: Int
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// Creates an empty cache. A `bound` of zero disables caching (every read goes to the database).
    package init(
        feed: ChangeFeed, bound: Duration = ProfileCache.defaultBound, maxAge: Duration = .seconds(60),
        capacity: Int = ProfileCache.defaultCapacity
    ) {
        self.feed = feed
        self.bound = bound
        self.maxAge = maxAge
        self.capacity = max(capacity, 1)
    }

    /// A cache that keeps nothing: every read goes to the database.
    package static var disabled: ProfileCache { ProfileCache(feed: .polled, bound: .zero) }

    /// Whether caching is on.
    package var isEnabled: Bool { bound > .zero }

    /// The number of devices held.
    package var count: Int { state.withLock { $0.entries.count } }

    /// The cached profiles of a device, and the generation to store freshly loaded ones under.
    package func lookup(_ key: DeviceKey) -> (profiles: [ProfileRecord]?, generation: UInt64) {
        let now = clock.now
        return state.withLock { state in (usableProfiles(key, in: state, at: now), state.generation) }
    }

    /// The cached profiles of a device when they may be used without reading the change feed first: the feed is
    /// notified and connected, or its last poll is younger than ``bound``. Nil sends the caller through
    /// `pollProfileChanges` and ``lookup(_:)``.
    package func currentProfiles(_ key: DeviceKey) -> [ProfileRecord]? {
        let now = clock.now
        return state.withLock { state in
            if feed == .polled { guard let at = state.polledAt, now - at < bound else { return nil } }
            return usableProfiles(key, in: state, at: now)
        }
    }

    /// The profiles held for `key` that may be used at `now`: nothing is used while the notified feed is down, nor
    /// past ``maxAge``.
    private func usableProfiles(_ key: DeviceKey, in state: State, at now: ContinuousClock.Instant) -> [ProfileRecord]? {
        guard feed == .polled || state.listening, let entry = state.entries[key], now - entry.loadedAt < maxAge else { return nil }
        return entry.profiles
    }

    /// Keeps profiles loaded under `generation`, unless something was evicted meanwhile.
    package func store(_ key: DeviceKey, _ profiles: [ProfileRecord], generation: UInt64) {
        let now = clock.now
        state.withLock { state in
            guard state.generation == generation, feed == .polled || state.listening else { return }
            if state.entries.count >= capacity, state.entries[key] == nil { makeRoom(&state.entries, now: now) }
            state.entries[key] = Entry(profiles: profiles, loadedAt: now)
        }
    }

    /// Frees a tenth of the capacity in one pass, without sorting (this runs under the lock, on the request path):
    /// entries past ``maxAge`` first (they would not be used again), then any others.
    private func makeRoom(_ entries: inout [DeviceKey: Entry], now: ContinuousClock.Instant) {
        let target = capacity - max(capacity / 10, 1)
        entries = entries.filter { now - $0.value.loadedAt < maxAge }
        guard entries.count > target else { return }
        for key in Array(entries.keys.prefix(entries.count - target)) { entries[key] = nil }
    }

    /// Drops the devices (a change seen through this instance, a notification or the change feed).
    package func evict(_ keys: some Sequence<DeviceKey>) {
        state.withLock { state in
            state.generation &+= 1
            for key in keys { state.entries[key] = nil }
        }
    }

    /// Drops everything.
    package func evictAll() {
        state.withLock { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// Whether the polled feed must be read now: the last sequence number read (nil: never polled, so nothing is
    /// cached yet) and the instant this poll started. Nil when no poll is due or another is running.
    package func pollDue() -> (afterSequence: Int64?, startedAt: ContinuousClock.Instant)? {
        let now = clock.now
        return state.withLock { state in
            guard feed == .polled else { return nil }
            if let at = state.polledAt, now - at < bound { return nil }
            if state.polling, state.lastSequence != nil { return nil }
            state.polling = true
            return (state.lastSequence, now)
        }
    }

    /// Records a poll started at `startedAt` that read the changes up to `lastSequence`, and evicts their devices.
    /// `lastSequence` nil: the poll failed.
    package func pollRead(_ changed: [DeviceKey], lastSequence: Int64?, startedAt: ContinuousClock.Instant) {
        state.withLock { state in
            state.polling = false
            guard let lastSequence else { return }
            if !changed.isEmpty {
                state.generation &+= 1
                for key in changed { state.entries[key] = nil }
            }
            if lastSequence > (state.lastSequence ?? .min) { state.lastSequence = lastSequence }
            if state.polledAt.map({ $0 < startedAt }) ?? true { state.polledAt = startedAt }
        }
    }

    /// Records whether the notification feed is connected; either way everything cached is dropped (changes made
    /// while it was down were not seen).
    package func setListening(_ listening: Bool) {
        state.withLock { state in
            state.listening = listening
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }

    /// Whether the notification feed is connected.
    package var isListening: Bool { state.withLock { $0.listening } }
}
