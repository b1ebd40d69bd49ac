import EntitleModel
import EntitleStorage
import Synchronization

/// The report figures of this instance not yet written to the database, per minute and ``ReportKey``. Counting is a
/// dictionary update under a lock (no database write on the request path); ``drain()`` hands the figures to the
/// flush, which adds them to the database's rows (several instances add up).
package final class ReportAccumulator: Sendable {
    /// Pending figures by minute (ms since 1970, a multiple of 60 000) and key.
    private let pending = Mutex<[Minute: ReportCounts]>([:])

    /// A minute and a key: one row of the reports table.
    package typealias Minute = ReportMinute

    /// Creates an empty accumulator.
    package init() {}

    /// Adds to the figures of `key` in the minute of `now` (ms since 1970) what `change` does.
    package func count(_ key: ReportKey, at now: Int64, _ change: (inout ReportCounts) -> Void) {
        let minute = Minute(start: now - ((now % 60_000) + 60_000) % 60_000, key: key)
        pending.withLock { pending in
            change(&pending[minute, default: ReportCounts()])
        }
    }

    /// Takes every pending figure (the accumulator is empty afterwards).
    package func drain() -> [Minute: ReportCounts] {
        pending.withLock { pending in
            defer { pending = [:] }
            return pending
        }
    }

    /// Puts figures back after a failed write (they are added to whatever was counted meanwhile).
    package func restore(_ figures: [Minute: ReportCounts]) {
        pending.withLock { pending in
            for (minute, counts) in figures { pending[minute, default: ReportCounts()].add(counts) }
        }
    }

    /// Whether nothing is pending.
    package var isEmpty: Bool { pending.withLock { $0.isEmpty } }
}
