import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct RequestorStateMachineTests {
    let fast = URL(string: "http://fast.test")!
    let slow = URL(string: "http://slow.test")!

    func configuration(_ ids: [String]) -> ConfigurationResponse {
        ConfigurationResponse(
            device: "desktop", clientType: "ios", os: "Linux",
            requestor: RequestorConfiguration(
                id: "REF", name: "Ref", domains: [],
                mvpds: ids.map { MVPDConfiguration(id: $0, displayName: $0, logoUrl: "") }))
    }

    @Test func holdsCallsUntilConfiguredThenRunsThemInOrder() {
        var machine = RequestorStateMachine<String>()
        guard case .none = machine.submit("early") else { Issue.record("not held"); return }
        guard case .fetch(let generation, let providers) = machine.setRequestor("REF", providers: [fast]) else { Issue.record("no fetch"); return }
        #expect(providers == [fast])
        guard case .none = machine.submit("second") else { Issue.record("not held"); return }
        #expect(machine.heldCount == 2)
        guard
            case .complete(let success, _, let run) = machine.received(
                generation: generation, provider: fast,
                result: .success(configuration(["A"])))
        else {
            Issue.record("not complete"); return
        }
        #expect(success)
        #expect(run == ["early", "second"])
        guard case .run("later") = machine.submit("later") else { Issue.record("not run"); return }
    }

    @Test func fastestResponderWinsPerMVPD() {
        var machine = RequestorStateMachine<String>()
        guard case .fetch(let generation, _) = machine.setRequestor("REF", providers: [slow, fast]) else { return }
        _ = machine.received(generation: generation, provider: fast, result: .success(configuration(["A", "B"])))
        _ = machine.received(generation: generation, provider: slow, result: .success(configuration(["B", "C"])))
        #expect(machine.routes.map(\.mvpd.id) == ["A", "B", "C"])
        #expect(machine.route(for: "B")?.provider == fast)
        #expect(machine.route(for: "C")?.provider == slow)
    }

    @Test func oneFailureAmongSeveralStillSucceeds() {
        var machine = RequestorStateMachine<String>()
        guard case .fetch(let generation, _) = machine.setRequestor("REF", providers: [slow, fast]) else { return }
        _ = machine.received(generation: generation, provider: slow, result: .failure(AccessEnablerError(code: .network, message: "down")))
        guard
            case .complete(true, nil, _) = machine.received(
                generation: generation, provider: fast,
                result: .success(configuration(["A"])))
        else {
            Issue.record("expected success"); return
        }
        #expect(machine.phase == .configured)
    }

    @Test func allFailuresFailWithTheFirstError() {
        var machine = RequestorStateMachine<String>()
        guard case .fetch(let generation, _) = machine.setRequestor("REF", providers: [fast]) else { return }
        _ = machine.submit("held")
        guard
            case .complete(false, let error?, let run) = machine.received(
                generation: generation, provider: fast, result: .failure(AccessEnablerError(code: .network, message: "down")))
        else {
            Issue.record("expected failure"); return
        }
        #expect(error.code == .network)
        #expect(run == ["held"])
        #expect(machine.phase == .failed)
        guard case .run = machine.submit("after") else { Issue.record("calls after a failure run (and fail)"); return }
    }

    @Test func staleAnswersOfASupersededPhaseAreIgnored() {
        var machine = RequestorStateMachine<String>()
        guard case .fetch(let first, _) = machine.setRequestor("REF", providers: [fast]) else { return }
        guard case .fetch(let second, _) = machine.setRequestor("REF", providers: [fast]) else { return }
        guard case .none = machine.received(generation: first, provider: fast, result: .success(configuration(["OLD"]))) else {
            Issue.record("stale answer used"); return
        }
        guard case .complete(true, _, _) = machine.received(generation: second, provider: fast, result: .success(configuration(["NEW"]))) else {
            Issue.record("expected completion"); return
        }
        #expect(machine.routes.map(\.mvpd.id) == ["NEW"])
    }

    @Test func duplicateProvidersAreFetchedOnce() {
        var machine = RequestorStateMachine<String>()
        guard case .fetch(_, let providers) = machine.setRequestor("REF", providers: [fast, fast, slow]) else { return }
        #expect(providers == [fast, slow])
    }
}
