/// Runs an instance's report flushes one after another, in the order they were asked for: a flush returns only when
/// the flushes before it have written what they drained, so a report made after a flush sees every figure counted
/// before it, even while the periodic flush is writing.
package actor FlushSequence {
    private var last: Task<Void, any Error>?

    package init() {}

    /// Runs `flush` after every flush asked for before it has ended (whether it wrote or failed).
    package func run(_ flush: @escaping @Sendable () async throws -> Void) async throws {
        let previous = last
        let current = Task {
            _ = await previous?.result
            try await flush()
        }
        last = current
        try await current.value
    }
}
