import Testing
@testable import AccessEnabler

@Suite struct LogoutStateMachineTests {
    @Test func notAuthenticatedCompletesAtOnce() {
        var machine = LogoutStateMachine()
        #expect(machine.logout(authenticatedMVPD: nil) == [.complete(partner: false)])
    }

    @Test func interactiveLogoutNavigatesAndCompletesOnceOnRedirect() {
        var machine = LogoutStateMachine()
        #expect(machine.logout(authenticatedMVPD: "DemoFiber") == [.requestLogout(attempt: 1)])
        #expect(machine.answered(attempt: 1, answer: .interactive(url: "http://s/logout"), deviceMode: false) == [.navigate(url: "http://s/logout")])
        #expect(machine.isAwaitingRedirect)
        #expect(machine.externalURL() == [.complete(partner: false)])
        #expect(machine.externalURL() == [])
    }

    @Test func deviceModeNeverNavigates() {
        var machine = LogoutStateMachine()
        _ = machine.logout(authenticatedMVPD: "DemoCable")
        #expect(machine.answered(attempt: 1, answer: .interactive(url: "u"), deviceMode: true) == [.complete(partner: false)])
    }

    @Test func partnerLogoutAsksForSystemSignOut() {
        var machine = LogoutStateMachine()
        _ = machine.logout(authenticatedMVPD: "DemoSSO")
        #expect(machine.answered(attempt: 1, answer: .partner, deviceMode: false) == [.complete(partner: true)])
    }

    @Test func staleAnswerIsIgnored() {
        var machine = LogoutStateMachine()
        _ = machine.logout(authenticatedMVPD: "A")
        _ = machine.logout(authenticatedMVPD: "A")
        #expect(machine.answered(attempt: 1, answer: .complete, deviceMode: false) == [])
        #expect(machine.answered(attempt: 2, answer: .complete, deviceMode: false) == [.complete(partner: false)])
    }
}
