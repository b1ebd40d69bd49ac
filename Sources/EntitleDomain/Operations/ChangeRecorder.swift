import Dispatch
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// The changes log's writer, shared by every operations type: each administrative change records who, when, what, and
/// the values before and after.
package struct ChangeRecorder: Sendable {
    /// Where the entries go.
    package let changeLog: ChangeLogStore
    /// Time of each entry.
    package let clock: any ServiceClock
    /// One notice per change.
    package let logger: Logger

    /// Records a change. `before` and `after` are encoded as JSON; callers pass values without secrets.
    package func record(
        actor: String, action: String, target: String, before: (any Encodable & Sendable)? = nil, after: (any Encodable & Sendable)? = nil
    ) async throws {
        let now = clock.nowMilliseconds()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func text(_ value: (any Encodable & Sendable)?) throws -> String? {
            guard let value else { return nil }
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        try await changeLog.appendChange(
            ChangeRecord(
                id: Self.changeID(at: now), at: now, actor: actor, action: action, target: target, valueBefore: try text(before),
                valueAfter: try text(after), description: ChangeDescription.current))
        logger.notice("administrative change", metadata: ["actor": "\(actor)", "action": "\(action)", "target": "\(target)"])
    }

    /// An id that orders entries of the same millisecond as they were made (the log is read ordered by time, then id):
    /// the time, the machine's monotonic clock, and randomness.
    package static func changeID(at: Int64) -> String {
        let tick = String(DispatchTime.now().uptimeNanoseconds), time = String(max(0, at))
        return String(repeating: "0", count: max(0, 13 - time.count)) + time + "-" + String(repeating: "0", count: max(0, 20 - tick.count)) + tick
            + "-" + Secrets.randomHex(bytes: 6)
    }

    /// Creates the value from each of its stored properties.
    package init(changeLog: ChangeLogStore, clock: any ServiceClock, logger: Logger) {
        self.changeLog = changeLog
        self.clock = clock
        self.logger = logger
    }
}

extension ChangeRecorder {
    /// The recorded changes after `since` (a change id), oldest first.
    package func recorded(since: Int64) async throws -> [ChangeRecord] {
        try await changeLog.changes(since: since).filter(OperatorReach.maySee(change:))
    }

    /// The recorded changes from `since` (Unix milliseconds): with a `limit`, only that many of the most recent; oldest
    /// first unless `newestFirst`.
    package func recorded(since: Int64, limit: Int?, newestFirst: Bool) async throws -> [ChangeRecord] {
        guard let limit, OperatorReach.scoped == nil else {
            // A scoped operator's entries are filtered first, then limited to the most recent.
            let changes = Array(try await changeLog.changes(since: since).filter(OperatorReach.maySee(change:)).suffix(max(0, limit ?? .max)))
            return newestFirst ? changes.reversed() : changes
        }
        let latest = try await changeLog.latestChanges(since: since, limit: max(0, limit))
        return newestFirst ? latest : latest.reversed()
    }
}
