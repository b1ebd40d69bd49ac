/// Stops one job of the enabler's task group when its flow is stopped — second-screen polling and platform single
/// sign-on, which the authentication state machine stops (`stopPolling`, `stopPlatformSSO`) while they wait — as
/// `Task.cancel()` stops a task.
final class JobCancellation: Sendable {
    private struct State: Sendable {
        var cancelled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Creates a handle that has not been cancelled.
    init() {}

    /// Cancels the job (once; later calls do nothing).
    func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.cancelled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Runs `operation` until it ends, cancelling it when ``cancel()`` is called first.
    func run(_ operation: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await operation() }
            group.addTask { await self.cancelled() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns when ``cancel()`` is called or the calling task is cancelled.
    private func cancelled() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            cancel()
        }
    }
}
