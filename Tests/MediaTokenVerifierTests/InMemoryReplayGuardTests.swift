import Foundation
@testable import MediaTokenVerifier
import Testing

@Suite struct InMemoryReplayGuardTests {
    let t0 = Date(timeIntervalSince1970: 2_000_000_000)
    func key(_ n: Int) -> ReplayKey { ReplayKey(hex: String(format: "%064x", n)) }

    @Test func firstUseThenReplayThenForgottenAfterExpiry() async throws {
        let store = InMemoryReplayGuard()
        #expect(try await store.claimFirstUse(of: key(1), until: t0.addingTimeInterval(60), now: t0))
        #expect(try await !store.claimFirstUse(of: key(1), until: t0.addingTimeInterval(60), now: t0.addingTimeInterval(59)))
        #expect(try await store.claimFirstUse(of: key(2), until: t0.addingTimeInterval(60), now: t0.addingTimeInterval(59)))
        #expect(try await store.claimFirstUse(of: key(1), until: t0.addingTimeInterval(120), now: t0.addingTimeInterval(60)))
    }

    @Test func sweepsExpiredEntries() async throws {
        let store = InMemoryReplayGuard(sweepInterval: .seconds(10))
        for n in 0..<100 {
            _ = try await store.claimFirstUse(of: key(n), until: t0.addingTimeInterval(5), now: t0)
        }
        #expect(await store.count == 100)
        _ = try await store.claimFirstUse(of: key(1000), until: t0.addingTimeInterval(100), now: t0.addingTimeInterval(11))
        #expect(await store.count == 1)
    }

    @Test func fullStoreFailsClosedUntilEntriesExpire() async throws {
        let store = InMemoryReplayGuard(capacity: 3, sweepInterval: .seconds(3600))
        for n in 0..<3 {
            #expect(try await store.claimFirstUse(of: key(n), until: t0.addingTimeInterval(10), now: t0))
        }
        await #expect(throws: ReplayGuardError.self) {
            try await store.claimFirstUse(of: key(9), until: t0.addingTimeInterval(10), now: t0.addingTimeInterval(1))
        }
        #expect(try await !store.claimFirstUse(of: key(0), until: t0.addingTimeInterval(10), now: t0.addingTimeInterval(1)))
        #expect(try await store.claimFirstUse(of: key(9), until: t0.addingTimeInterval(30), now: t0.addingTimeInterval(10)))
        #expect(await store.count == 1)
    }

    @Test func replayKeyIsTheSHA256OfTheBody() {
        #expect(ReplayKey(body: Data("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
