import Foundation
import Testing

@testable import AccessEnabler

/// ``JobCancellation``: the handle through which the authentication flow stops its polling and platform sign-on jobs.
@Suite struct JobCancellationTests {
    /// What an operation saw: whether it ran to its end or was cancelled.
    private final class Outcome: Sendable {
        let value = Locked<String?>(nil)
    }

    @Test func anOperationThatEndsIsNotCancelled() async {
        let cancellation = JobCancellation()
        let outcome = Outcome()
        await cancellation.run { outcome.value.withLock { $0 = Task.isCancelled ? "cancelled" : "done" } }
        #expect(outcome.value.value == "done")
    }

    @Test func cancelStopsAWaitingOperation() async {
        let cancellation = JobCancellation()
        let outcome = Outcome()
        let started = AsyncStream<Void>.makeStream()
        async let run: Void = cancellation.run {
            started.continuation.yield()
            do {
                try await Task.sleep(for: .seconds(600))
                outcome.value.withLock { $0 = "slept" }
            } catch {
                outcome.value.withLock { $0 = "cancelled" }
            }
        }
        for await _ in started.stream { break }
        cancellation.cancel()
        await run
        #expect(outcome.value.value == "cancelled")
    }

    @Test func aCancelBeforeTheRunCancelsTheOperationAtOnce() async {
        let cancellation = JobCancellation()
        cancellation.cancel()
        cancellation.cancel()
        let outcome = Outcome()
        await cancellation.run {
            do {
                try await Task.sleep(for: .seconds(600))
                outcome.value.withLock { $0 = "slept" }
            } catch {
                outcome.value.withLock { $0 = "cancelled" }
            }
        }
        #expect(outcome.value.value == "cancelled")
    }

    @Test func cancellingTheRunningTaskCancelsTheOperation() async {
        let cancellation = JobCancellation()
        let outcome = Outcome()
        let task = Task {
            await cancellation.run {
                do {
                    try await Task.sleep(for: .seconds(600))
                    outcome.value.withLock { $0 = "slept" }
                } catch {
                    outcome.value.withLock { $0 = "cancelled" }
                }
            }
        }
        task.cancel()
        await task.value
        #expect(outcome.value.value == "cancelled")
    }
}
