import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

extension EntitleHost {
    /// Runs a host with `configuration` on a free 127.0.0.1 port until `body` returns, then stops it and closes storage.
    /// Storage is `configuration.databaseURL` when set; otherwise a throwaway PostgreSQL database when
    /// `ENTITLE_TEST_DATABASE_URL` names a server (``ScratchDatabase``), else SQLite in `configuration.dataDirectory`.
    /// With `temporaryDataDirectory` (the default) the data directory is a new temporary folder, removed afterwards.
    /// The port is chosen before the service binds it (its URLs are part of the seeded world), so when another process
    /// takes it meanwhile the whole start is retried on a new port: with fresh storage, or in the kept data directory
    /// and database (whose demo world is re-pointed to the new port, as on any restart on another port).
    /// `entitle bench` runs its in-process service this way, and the test harness (`EntitleTesting.LocalService`) too.
    package static func runOnLoopback(
        configuration: HostConfiguration, temporaryDataDirectory: Bool = true, logger: Logger,
        clock: any ServiceClock, _ body: (EntitleHost) async throws -> Void
    ) async throws {
        for attempt in 1...5 {
            var configuration = configuration
            if temporaryDataDirectory { configuration.dataDirectory = NSTemporaryDirectory() + "entitle-test-" + UUID().uuidString }
            let database: ScratchDatabase? = configuration.databaseURL == nil ? try await ScratchDatabase.create() : nil
            if let database { configuration.databaseURL = database.url }
            defer { if temporaryDataDirectory { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) } }
            do {
                configuration.port = try freePort()
                try await serveOnce(configuration: configuration, logger: logger, clock: clock, body)
                try? await database?.drop()
                return
            } catch is PortTaken where attempt < 5 {
                try? await database?.drop()
            } catch {
                try? await database?.drop()
                throw error
            }
        }
    }

    /// The server could not bind its port (another process took it after ``freePort()``).
    package struct PortTaken: Error {}

    /// The server stopped before it listened, without saying why.
    package struct StoppedBeforeListening: Error {}

    /// Runs a host with exactly `configuration` (its port included) until `body` returns, then stops it and closes
    /// storage; `body` runs only once the server listens.
    package static func serveOnce(
        configuration: HostConfiguration, logger: Logger, clock: any ServiceClock,
        _ body: (EntitleHost) async throws -> Void
    ) async throws {
        let host = try await EntitleHost.prepare(configuration: configuration, logger: logger, clock: clock)
        let (listening, listeningSignal) = AsyncStream<Void>.makeStream()
        let app = host.makeApplication { _ in
            listeningSignal.yield()
            listeningSignal.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let startFailure = StartFailure()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { listeningSignal.finish() }
                do { try await group.run() } catch {
                    startFailure.record(error)
                    throw error
                }
            }
            do {
                // Only once this server listens is /healthz surely answered by it and not by whoever holds the port.
                var signals = listening.makeAsyncIterator()
                guard await signals.next() != nil else { throw startFailure.reason }
                try await body(host)
            } catch {
                await group.triggerGracefulShutdown()
                await host.shutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await host.shutdown()
    }
}

/// A port that was free a moment ago on 127.0.0.1.
package func freePort() throws -> Int {
    let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
    let port = channel.localAddress?.port ?? 0
    try channel.close().wait()
    return port
}

/// Why a server stopped before it listened: the error of its run, kept for the task that waits for it to listen.
private final class StartFailure: Sendable {
    private let error = Mutex<(any Error)?>(nil)

    func record(_ error: any Error) { self.error.withLock { $0 = error } }

    /// ``EntitleHost/PortTaken`` when the port was in use (so the caller can try another), else the error itself.
    var reason: any Error {
        guard let error = error.withLock({ $0 }) else { return EntitleHost.StoppedBeforeListening() }
        if let io = error as? IOError, io.errnoCode == EADDRINUSE { return EntitleHost.PortTaken() }
        return error
    }
}
