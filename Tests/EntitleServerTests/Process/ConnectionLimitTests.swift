import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// Slow, silent and idle clients cannot hold connections forever, the number of connections is capped, and a
/// connection answered with an error is closed completely. Real server, real sockets; small timeouts, and no
/// assertion on how fast anything happens (the generous waits only bound a test that would otherwise hang).
@Suite struct ConnectionLimitTests {
    /// Runs the service (no demo world, SQLite) on an ephemeral port with `limits`.
    static func withServer(_ limits: ConnectionLimits, _ body: @Sendable (Int) async throws -> Void) async throws {
        let directory = NSTemporaryDirectory() + "entitle-conn-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = HostConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configuration.demo = false
        configuration.connectionLimits = limits
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        let host = try await EntitleHost.prepare(configuration: configuration, logger: logger)
        let (ports, portSignal) = AsyncStream<Int>.makeStream()
        let app = host.makeApplication { port in
            portSignal.yield(port ?? 0)
            portSignal.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next(), port > 0 else { throw POSIXError(.EADDRNOTAVAIL) }
                try await body(port)
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

    static func limits(idle: Double = 30, request: Double = 60, connections: Int = 1000, linger: Double = 2) -> ConnectionLimits {
        var limits = ConnectionLimits()
        limits.idleTimeout = idle
        limits.requestTimeout = request
        limits.maxConnections = connections
        limits.lingerTimeout = linger
        return limits
    }

    /// Waits (up to `seconds`) until `condition` holds.
    static func eventually(within seconds: Double, _ condition: @Sendable () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }

    @Test func silentConnectionsPartialHeadersAndIdleKeepAliveAreClosed() async throws {
        try await Self.withServer(Self.limits(idle: 1)) { port in
            let silent = try RawConnection(port: port)
            defer { silent.close() }
            let partial = try RawConnection(port: port)
            defer { partial.close() }
            #expect(partial.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "))
            let keepAlive = try RawConnection(port: port)
            defer { keepAlive.close() }
            #expect(keepAlive.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            let answered = await keepAlive.read(timeout: 20)
            guard case .data(let data) = answered else { Issue.record("no answer: \(answered)"); return }
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200"))

            #expect(await silent.readUntilClosed(timeout: 20).closed, "a silent connection stays open")
            #expect(await partial.readUntilClosed(timeout: 20).closed, "a partial header stays open")
            #expect(await keepAlive.readUntilClosed(timeout: 20).closed, "an idle keep-alive connection stays open")
        }
    }

    @Test func headersAndBodiesSentDropByDropAreCutOff() async throws {
        try await Self.withServer(Self.limits(idle: 1, request: 2)) { port in
            // A header dripped a line at a time never completes: the idle timeout counts from the last request part.
            let header = try RawConnection(port: port)
            defer { header.close() }
            #expect(header.send("GET /healthz HTTP/1.1\r\nHost: x\r\n"))
            // A body dripped a byte at a time: each byte is activity, the request timeout bounds the whole request.
            let body = try RawConnection(port: port)
            defer { body.close() }
            #expect(body.send("POST /o/client/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"))
            var headerOpen = true, bodyOpen = true
            let deadline = Date().addingTimeInterval(30)
            while (headerOpen || bodyOpen) && Date() < deadline {
                if headerOpen {
                    let sent = header.sendWithoutWaiting("X-Drip: 1\r\n")
                    let closed = await header.read(timeout: 0.25) == .closed
                    headerOpen = sent && !closed
                }
                if bodyOpen {
                    let sent = body.sendWithoutWaiting(" ")
                    let closed = await Self.closedAfterReading(body)
                    bodyOpen = sent && !closed
                }
            }
            #expect(!headerOpen, "a dripped header is never cut off")
            #expect(!bodyOpen, "a dripped body is never cut off")
        }
    }

    /// Reads briefly; true when the server has closed (an answer before the close is fine).
    static func closedAfterReading(_ connection: RawConnection) async -> Bool {
        switch await connection.read(timeout: 0.25) {
        case .closed: return true
        case .data: return await connection.readUntilClosed(timeout: 0.25).closed
        case .timedOut: return false
        }
    }

    @Test func connectionsBeyondTheCapWaitUntilOneCloses() async throws {
        try await Self.withServer(Self.limits(idle: 60, connections: 2)) { port in
            let first = try RawConnection(port: port), second = try RawConnection(port: port)
            defer { second.close() }
            #expect(first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(await first.read(timeout: 20) != .timedOut)
            #expect(await second.read(timeout: 20) != .timedOut)
            // Both connections stay open (keep-alive); a third is not served while they are.
            let third = try RawConnection(port: port)
            defer { third.close() }
            #expect(third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(await third.read(timeout: 1.5) == .timedOut, "a connection beyond the cap was served")
            first.close()
            guard case .data(let data) = await third.read(timeout: 20) else {
                Issue.record("the waiting connection was not served after another closed")
                return
            }
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aConnectionAnsweredWithAnErrorIsClosedCompletely() async throws {
        // A linger time long enough that a client starved of CPU on a busy machine still finishes sending before the
        // server gives up on it (the close would then be a reset that discards the 400 before it is read).
        try await Self.withServer(Self.limits(linger: 5)) { port in
            let oversized = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 100 * 1024) + "\r\n\r\n"
            // The client keeps sending after the 400, then closes.
            let talker = try RawConnection(port: port)
            talker.sendAll(oversized)
            let answer = await talker.readUntilClosed(timeout: 20)
            #expect(String(decoding: answer.data, as: UTF8.self).hasPrefix("HTTP/1.1 400"))
            #expect(answer.closed)
            // More than the server's receive window: the client's FIN queues behind bytes the server must read.
            talker.fillSendBuffer()
            talker.close()
            #expect(
                try await Self.eventually(within: 15) { !RawConnection.serverHoldsSocket(serverPort: port, clientPort: talker.localPort) },
                "the server still holds the socket of a connection it answered with 400")
            // The client neither sends nor closes: the connection is closed once the linger time is up.
            let mute = try RawConnection(port: port)
            defer { mute.close() }
            mute.sendAll(oversized)
            #expect(await mute.readUntilClosed(timeout: 20).closed)
            #expect(
                try await Self.eventually(within: 15) { !RawConnection.serverHoldsSocket(serverPort: port, clientPort: mute.localPort) },
                "the server still holds the socket of a silent client it answered with 400")
        }
    }
}
