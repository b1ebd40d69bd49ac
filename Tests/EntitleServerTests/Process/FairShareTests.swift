#if canImport(Glibc)
import Glibc
#endif
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// One client address cannot starve everyone else: it holds at most its per-address share of connections (the rest
/// are answered 503 at once), and a header that never completes frees its connection after the header timeout.
/// Another address is answered within 3 s throughout, also while the first keeps reconnecting.
@Suite(.serialized) struct FairShareTests {
    static let attacker = "127.0.0.2"
    static let partialHeader = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "

    /// Enough descriptors for both ends of a thousand connections in this process.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, 8192))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Seconds until `/healthz` is answered on a new connection from 127.0.0.1 (nil: not within `limit`).
    static func healthzAnswered(port: Int, within limit: Double) async throws -> Double? {
        let start = Date()
        let probe = try RawConnection(port: port, from: "127.0.0.1")
        defer { probe.close() }
        guard probe.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") else { return nil }
        guard case .data(let data) = await probe.read(timeout: limit), String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200")
        else { return nil }
        return Date().timeIntervalSince(start)
    }

    @Test func oneAddressHoldingAThousandHalfSentHeadersLeavesOthersServed() async throws {
        Self.raiseDescriptorLimit()
        try await ConnectionLimitTests.withServer(ConnectionLimits()) { port in
            var held: [RawConnection] = []
            defer { for connection in held { connection.close() } }
            for _ in 0..<1_000 {
                let connection = try RawConnection(port: port, from: Self.attacker)
                connection.sendWithoutWaiting(Self.partialHeader)
                held.append(connection)
            }
            let answered = try await Self.healthzAnswered(port: port, within: 3)
            #expect(answered != nil, "/healthz from another address was not answered within 3 s")
            // The connections beyond the address's share were answered 503 at once, not queued.
            guard case .data(let refusal) = await held[999].read(timeout: 5) else {
                Issue.record("a connection over the per-address limit got no answer")
                return
            }
            #expect(String(decoding: refusal, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
            #expect(String(decoding: refusal, as: UTF8.self).contains("Too many connections from this client address."))
        }
    }

    @Test func anAddressThatKeepsReconnectingLeavesOthersServed() async throws {
        Self.raiseDescriptorLimit()
        try await ConnectionLimitTests.withServer(ConnectionLimits()) { port in
            let stop = Date().addingTimeInterval(6)
            // The attacker reopens connections with half-sent headers as fast as it can, never finishing one.
            let attack = Task.detached {
                var opened: [RawConnection] = []
                defer { for connection in opened { connection.close() } }
                while Date() < stop {
                    guard let connection = try? RawConnection(port: port, from: Self.attacker) else { continue }
                    connection.sendWithoutWaiting(Self.partialHeader)
                    opened.append(connection)
                    if opened.count >= 1_000 {
                        for connection in opened.prefix(200) { connection.close() }
                        opened.removeFirst(200)
                    }
                }
                return opened.count
            }
            var slowest = 0.0
            var unanswered = 0
            while Date() < stop {
                if let seconds = try await Self.healthzAnswered(port: port, within: 3) { slowest = max(slowest, seconds) } else { unanswered += 1 }
                try await Task.sleep(for: .milliseconds(300))
            }
            _ = await attack.value
            #expect(unanswered == 0, "\(unanswered) probes of /healthz went unanswered for 3 s")
            #expect(slowest < 3)
        }
    }

    @Test func aHeaderThatNeverEndsIsCutOffAtTheHeaderTimeout() async throws {
        var limits = ConnectionLimits()
        limits.headerTimeout = 1
        limits.idleTimeout = 60
        try await ConnectionLimitTests.withServer(limits) { port in
            let partial = try RawConnection(port: port)
            defer { partial.close() }
            // Bytes keep arriving (so the idle timeout never fires), but the header never ends.
            var open = true
            let deadline = Date().addingTimeInterval(20)
            while open && Date() < deadline {
                let sent = partial.sendWithoutWaiting("X-Drip: 1\r\n")
                let closed = await partial.read(timeout: 0.25) == .closed
                open = sent && !closed
            }
            #expect(!open, "a header dripped for 20 s was not cut off by a 1 s header timeout")
            // A request that completes its header in time is served on a kept-alive connection, twice.
            let normal = try RawConnection(port: port)
            defer { normal.close() }
            for _ in 0..<2 {
                #expect(normal.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
                guard case .data(let data) = await normal.read(timeout: 10) else {
                    Issue.record("no answer on the kept-alive connection")
                    return
                }
                #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
                try await Task.sleep(for: .milliseconds(1_500))  // longer than the header timeout, while idle between requests
            }
        }
    }

    @Test func perAddressCountsAreReleasedAndTrustedProxiesAreExempt() async throws {
        var limits = ConnectionLimits()
        limits.maxConnectionsPerAddress = 2
        try await ConnectionLimitTests.withServer(limits) { port in
            let first = try RawConnection(port: port, from: Self.attacker), second = try RawConnection(port: port, from: Self.attacker)
            defer { second.close() }
            #expect(first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(await first.read(timeout: 10) != .timedOut)
            let third = try RawConnection(port: port, from: Self.attacker)
            #expect(third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
            guard case .data(let refused) = await third.read(timeout: 10) else { Issue.record("no 503"); return }
            #expect(String(decoding: refused, as: UTF8.self).hasPrefix("HTTP/1.1 503"))
            third.close()
            first.close()
            // Once one closes, the address may connect again.
            var served = false
            for _ in 0..<20 where !served {
                try await Task.sleep(for: .milliseconds(200))
                let again = try RawConnection(port: port, from: Self.attacker)
                defer { again.close() }
                _ = again.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                if case .data(let data) = await again.read(timeout: 5) { served = String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200") }
            }
            #expect(served)
        }
        limits.exemptAddresses = [try #require(IPAddressRange("127.0.0.0/30"))]
        try await ConnectionLimitTests.withServer(limits) { port in
            let connections = try (0..<5).map { _ in try RawConnection(port: port, from: Self.attacker) }
            defer { for connection in connections { connection.close() } }
            for connection in connections {
                #expect(connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
                guard case .data(let data) = await connection.read(timeout: 10) else { Issue.record("no answer"); continue }
                #expect(String(decoding: data, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "a trusted proxy was limited per address")
            }
        }
    }
}
