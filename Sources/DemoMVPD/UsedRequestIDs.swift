import Foundation
import Synchronization

/// The IDs of the AuthnRequests the demo MVPD took by the HTTP-POST binding, each kept until it would be too old
/// anyway (`requestMaxAge`): a request posted a second time is a replay and is refused.
final class UsedRequestIDs: Sendable {
    private let seen = Mutex<[String: Date]>([:])

    /// Creates an empty record.
    init() {}

    /// Records `id` and answers true, or answers false when it was recorded before and has not expired. Entries
    /// older than `maxAge` are dropped first.
    func use(_ id: String, now: Date, maxAge: TimeInterval) -> Bool {
        seen.withLock { seen in
            seen = seen.filter { now.timeIntervalSince($0.value) <= maxAge }
            guard seen[id] == nil else { return false }
            seen[id] = now
            return true
        }
    }
}
