import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

/// Every change of the engine's local state reaches storage: after each flow, what a relaunch would read back equals
/// what the engine holds.
@Suite struct LocalStatePersistenceTests {
    /// What a relaunch reads for requestor `REF`.
    static func stored(in store: InMemoryTokenStore) async -> LocalState? {
        await SecureStorage(store: store, check: .INTEGRITY_CHECK_ALL).read(LocalState.self, LocalState.storageKey(requestor: "REF"))
    }

    /// Waits (up to 5 s of real time) until storage holds the engine's local state, and returns it.
    @discardableResult
    static func persisted(_ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation) async -> LocalState {
        var memory = LocalState()
        for _ in 0..<1000 {
            memory = await harness.enabler.engine.local
            if await stored(in: harness.store) == memory { return memory }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        Issue.record(
            "storage never caught up: engine \(memory), stored \(String(describing: await stored(in: harness.store)))",
            sourceLocation: sourceLocation)
        return memory
    }

    @Test func aFailedAuthorizationForgetsTheStoredDecisionToo() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        _ = try await harness.enabler.authorize("news")
        #expect(await Self.persisted(harness).authorizations["news"] != nil)
        harness.service.update { $0.entitlements["DemoCable"] = ["sports"] }
        await #expect(throws: AccessEnablerError.self) { try await harness.enabler.authorize("news") }
        let state = await Self.persisted(harness)
        #expect(state.authorizations["news"] == nil)
        // A relaunch on the same store does not find the decision either.
        let relaunched = Harness(store: harness.store, clock: harness.clock)
        await relaunched.configure()
        #expect(await relaunched.enabler.engine.local.authorizations["news"] == nil)
    }

    @Test func everyFlowLeavesStorageEqualToTheEngine() async throws {
        let harness = Harness()
        await harness.configure()
        await harness.authenticate()
        #expect(await Self.persisted(harness).selectedMVPD == "DemoCable")
        _ = try await harness.enabler.authorize("news")
        await Self.persisted(harness)
        // The service lost the profile: authorization forgets it, and so does storage.
        harness.service.update { $0.profiles = [:] }
        await #expect(throws: AccessEnablerError.self) { try await harness.enabler.authorize("sports") }
        let lost = await Self.persisted(harness)
        #expect(lost.profiles.isEmpty && lost.selectedMVPD == nil)
        harness.recorder.clear()
        await harness.authenticate()
        #expect(await Self.persisted(harness).selectedMVPD == "DemoCable")
        try await harness.enabler.signOut()
        let signedOut = await Self.persisted(harness)
        #expect(signedOut.profiles.isEmpty && signedOut.authorizations.isEmpty)
    }
}
