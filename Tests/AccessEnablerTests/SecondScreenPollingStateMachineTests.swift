import Foundation
import Testing
@testable import AccessEnabler

@Suite struct SecondScreenPollingStateMachineTests {
    let start = Date(timeIntervalSince1970: 1_000)

    @Test func intervalIsClampedToThreeToFiveSeconds() {
        #expect(SecondScreenPollingStateMachine(interval: 0.1).interval == 3)
        #expect(SecondScreenPollingStateMachine(interval: 60).interval == 5)
        #expect(SecondScreenPollingStateMachine(interval: 4).interval == 4)
    }

    @Test func pollsUntilAuthenticated() {
        var machine = SecondScreenPollingStateMachine()
        #expect(machine.start(code: "C", notAfter: start.addingTimeInterval(60), now: start) == .pollAfter(seconds: 3, generation: 1))
        #expect(machine.pollCompleted(generation: 1, result: .pending, now: start.addingTimeInterval(3)) == .pollAfter(seconds: 3, generation: 1))
        #expect(
            machine.pollCompleted(generation: 1, result: .transientFailure, now: start.addingTimeInterval(6)) == .pollAfter(seconds: 3, generation: 1)
        )
        #expect(
            machine.pollCompleted(generation: 1, result: .authenticated(mvpd: "DemoCable"), now: start.addingTimeInterval(9))
                == .succeeded(mvpd: "DemoCable", generation: 1))
        #expect(machine.state == .idle)
    }

    @Test func stopsAtNotAfter() {
        var machine = SecondScreenPollingStateMachine()
        _ = machine.start(code: "C", notAfter: start.addingTimeInterval(4), now: start)
        #expect(machine.pollCompleted(generation: 1, result: .pending, now: start.addingTimeInterval(3)) == .pollAfter(seconds: 1, generation: 1))
        #expect(machine.pollCompleted(generation: 1, result: .pending, now: start.addingTimeInterval(4)) == .expired(generation: 1))
    }

    @Test func expiredCodeNeverPolls() {
        var machine = SecondScreenPollingStateMachine()
        #expect(machine.start(code: "C", notAfter: start, now: start) == .expired(generation: 1))
    }

    @Test func honoursRetryAfter() {
        var machine = SecondScreenPollingStateMachine()
        _ = machine.start(code: "C", notAfter: start.addingTimeInterval(600), now: start)
        #expect(machine.pollCompleted(generation: 1, result: .throttled(retryAfter: 20), now: start) == .pollAfter(seconds: 20, generation: 1))
    }

    @Test func cancelAndNewCodeIgnoreOldAnswers() {
        var machine = SecondScreenPollingStateMachine()
        _ = machine.start(code: "A", notAfter: start.addingTimeInterval(60), now: start)
        _ = machine.start(code: "B", notAfter: start.addingTimeInterval(60), now: start)
        #expect(machine.code == "B")
        #expect(machine.pollCompleted(generation: 1, result: .authenticated(mvpd: "X"), now: start) == .none)
        let cancelled = machine.cancel()
        #expect(cancelled)
        #expect(machine.pollCompleted(generation: 2, result: .authenticated(mvpd: "X"), now: start) == .none)
        let cancelledAgain = machine.cancel()
        #expect(!cancelledAgain)
    }

    @Test func permanentFailureStops() {
        var machine = SecondScreenPollingStateMachine()
        _ = machine.start(code: "A", notAfter: nil, now: start)
        let error = AccessEnablerError(code: .accessToken, message: "no")
        #expect(machine.pollCompleted(generation: 1, result: .failed(error), now: start) == .failed(error, generation: 1))
    }
}
