import Foundation
import Testing
@testable import AccessEnabler

/// Benchmarks, run only with `ENTITLE_BENCH=1`; they print ratios to a baseline measured in the same run and
/// assert nothing about speed.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ENTITLE_BENCH"] != nil)) struct SDKBenchmarks {
    static let slowDelay = 0.2

    func configurationTime(providers: [String], services: [String: FakeService]) async throws -> Double {
        let harness = Harness(transport: RoutingTransport(services: services))
        _ = try await harness.enabler.configure(requestorID: "REF", serviceProviders: providers)  // registration + first token
        var best = Double.infinity
        for _ in 0..<5 {
            let start = Date()
            _ = try await harness.enabler.configure(requestorID: "REF", serviceProviders: providers)
            best = min(best, Date().timeIntervalSince(start))
        }
        return best
    }

    @Test func setRequestorWithThreeProvidersVersusTheSlowOneAlone() async throws {
        let clock = TestClock()
        let services = ["a": FakeService(clock: clock), "b": FakeService(clock: clock), "slow": FakeService(clock: clock)]
        services["slow"]!.update { $0.configurationDelay = Self.slowDelay }
        let alone = try await configurationTime(providers: ["http://slow"], services: services)
        let three = try await configurationTime(providers: ["http://a", "http://b", "http://slow"], services: services)
        print(
            "BENCH setRequestor→setRequestorComplete: slow alone \(String(format: "%.1f", alone * 1000)) ms, three providers \(String(format: "%.1f", three * 1000)) ms, ratio \(String(format: "%.2f", three / alone)) (serial would be ≥ 1 + fast/slow)"
        )
    }

    @Test func checkAuthenticationCallsPerSecondFromTheLocalCache() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        let count = 20_000
        var start = Date()
        for _ in 0..<count { _ = await harness.enabler.authenticatedMVPD() }
        let asyncRate = Double(count) / Date().timeIntervalSince(start)
        // Baseline in the same run: a round trip through the same command queue that does no work.
        start = Date()
        for _ in 0..<count { _ = try? await harness.enabler.providers() }
        let baselineRate = Double(count) / Date().timeIntervalSince(start)
        // The delegate path: fire-and-forget calls, measured until the last callback arrived.
        let delivered = Locked(0)
        let token = harness.enabler.observe { event in
            if case .setAuthenticationStatus = event { delivered.withLock { $0 += 1 } }
        }
        start = Date()
        for _ in 0..<count { harness.enabler.checkAuthentication() }
        while delivered.value < count { try await Task.sleep(nanoseconds: 1_000_000) }
        let callbackRate = Double(count) / Date().timeIntervalSince(start)
        token.cancel()
        print(
            "BENCH checkAuthentication from cache: \(Int(callbackRate))/s with callbacks, \(Int(asyncRate))/s async; empty-command baseline \(Int(baselineRate))/s; ratio \(String(format: "%.2f", asyncRate / baselineRate))"
        )
    }
}
