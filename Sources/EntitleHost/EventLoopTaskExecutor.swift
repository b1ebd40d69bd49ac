import NIOCore
import NIOPosix

/// Runs the service's tasks on NIO's event loops instead of the global executor. A job enqueued on an event-loop thread
/// (a request's body or the next request arriving on its connection) runs on that same loop once the loop is done with
/// what it is doing; any other job runs on the next loop of the group. A request is then read, handled and answered on
/// one thread, without two thread hops (loop to global executor and back) and their wake-ups per request.
///
/// Nothing in the service blocks a thread while it waits: storage and MVPD calls are asynchronous, so a loop that runs
/// handler code keeps serving its other connections between their suspensions.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, *)
package final class EventLoopTaskExecutor: TaskExecutor {
    private let group: MultiThreadedEventLoopGroup

    /// An executor over `group`'s loops.
    package init(group: MultiThreadedEventLoopGroup = .singleton) {
        self.group = group
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? group.next()
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs `body` (the service's applications) with ``EventLoopTaskExecutor`` as the preferred executor of every task it
/// starts; where the platform lacks task executors, on the global executor as before.
package func withEventLoopTaskExecutor<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, *) {
        return try await withTaskExecutorPreference(EventLoopTaskExecutor()) { try await body() }
    }
    return try await body()
}
