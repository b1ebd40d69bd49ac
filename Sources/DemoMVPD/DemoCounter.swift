import Synchronization

/// A counter shared by every copy of the ``DemoMVPD`` value (requests are served concurrently).
package final class DemoCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Creates a counter at zero.
    package init() {}

    /// The count so far.
    package var count: Int { value.load(ordering: .relaxed) }

    /// Adds one.
    func increment() { value.add(1, ordering: .relaxed) }
}
