import EntitleModel
import Logging
import NIOPosix
import PostgresNIO
import Synchronization

/// Keeps a `LISTEN entitle_profiles` connection to PostgreSQL open and evicts from a ``ProfileCache`` every device a
/// notification names (the trigger of migration 90 sends one per profile written, in the writing transaction).
///
/// While the connection is down the cache keeps nothing (``ProfileCache/setListening(_:)``), so a change made
/// meanwhile can never be missed; the listener reconnects every ``retryInterval``.
package final class ProfileChangeListener: Sendable {
    /// The notification channel the trigger sends on.
    package static let channel = "entitle_profiles"
    /// The pause between connection attempts.
    package static let retryInterval: Duration = .seconds(1)

    private let cache: ProfileCache
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Creates a listener for `cache` over a PostgreSQL connection made with `configuration`.
    package init(cache: ProfileCache, configuration: PostgresConnection.Configuration, logger: Logger) {
        self.cache = cache
        self.configuration = configuration
        self.logger = logger
    }

    /// Starts listening in the background.
    package func start() {
        let running = Task { [self] in await run() }
        task.withLock { $0 = running }
    }

    /// Stops listening and waits until the connection is closed.
    package func stop() async {
        guard let running = task.withLock({ $0.take() }) else { return }
        running.cancel()
        await running.value
        cache.setListening(false)
    }

    private func run() async {
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                try await listenOnce(connectionID: attempt)
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "profile change notifications lost; profiles read from the database until reconnected",
                        metadata: ["error": "\(String(reflecting: type(of: error)))"])
                }
            }
            cache.setListening(false)
            try? await Task.sleep(for: Self.retryInterval)
        }
    }

    private func listenOnce(connectionID: Int) async throws {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: connectionID, logger: logger
        ).get()
        do {
            try await withTaskCancellationHandler {
                try await connection.listen(on: Self.channel) { notifications in
                    cache.setListening(true)
                    logger.info("profile change notifications on", metadata: ["channel": "\(Self.channel)"])
                    for try await notification in notifications {
                        if let key = ProfileCache.DeviceKey(payload: notification.payload) {
                            cache.evict([key])
                        } else {
                            cache.evictAll()
                        }
                    }
                }
            } onCancel: {
                connection.close().whenComplete { _ in }
            }
        } catch {
            try? await connection.close().get()
            throw error
        }
        try? await connection.close().get()
    }
}
