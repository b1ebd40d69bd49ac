import Dispatch

/// Where callbacks run. Jobs must run one at a time, in the order they were enqueued.
public protocol CallbackExecutor: Sendable {
    /// Runs `job` later, after every job enqueued before it.
    func enqueue(_ job: @escaping @Sendable () -> Void)
}

/// Runs callbacks on a serial `DispatchQueue` (the main queue on Apple platforms by default).
public struct DispatchQueueExecutor: CallbackExecutor {
    /// The queue; it must be serial.
    public let queue: DispatchQueue

    /// Creates an executor on `queue` (serial).
    public init(queue: DispatchQueue) { self.queue = queue }

    /// Creates an executor on a new private serial queue.
    public init(label: String = "entitle.access-enabler.callbacks") { self.queue = DispatchQueue(label: label) }

    /// Enqueues `job` asynchronously on the queue.
    public func enqueue(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }

    #if canImport(Darwin)
    /// The main queue (Apple platforms).
    public static var main: DispatchQueueExecutor { DispatchQueueExecutor(queue: .main) }
    #endif

    /// The default: the main queue on Apple platforms, a private serial queue elsewhere.
    public static func platformDefault() -> DispatchQueueExecutor {
        #if canImport(Darwin)
        return .main
        #else
        return DispatchQueueExecutor()
        #endif
    }
}
