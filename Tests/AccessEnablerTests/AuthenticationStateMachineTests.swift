import Foundation
import Testing
@testable import AccessEnabler

@Suite struct AuthenticationStateMachineTests {
    @Test func validProfileAnswersWithoutPicker() {
        var machine = AuthenticationStateMachine()
        #expect(
            machine.getAuthentication(force: false, authenticatedMVPD: "DemoCable", hasProviders: true)
                == [.reportAuthenticated(mvpd: "DemoCable", cached: true)])
        #expect(machine.state == .idle)
    }

    @Test func forceAuthnShowsPickerEvenWhenAuthenticated() {
        var machine = AuthenticationStateMachine()
        #expect(machine.getAuthentication(force: true, authenticatedMVPD: "DemoCable", hasProviders: true) == [.displayProviderDialog])
        #expect(machine.state == .selectingProvider)
    }

    @Test func noProvidersIsReported() {
        var machine = AuthenticationStateMachine()
        #expect(
            machine.getAuthentication(force: false, authenticatedMVPD: nil, hasProviders: false)
                == [.reportFailure(code: PROVIDER_NOT_AVAILABLE_ERROR, statusID: nil)])
    }

    @Test func webViewFlowCompletesExactlyOnce() {
        var machine = AuthenticationStateMachine()
        _ = machine.getAuthentication(force: false, authenticatedMVPD: nil, hasProviders: true)
        #expect(machine.selectProvider("DemoCable", known: true) == [.createSession(mvpd: "DemoCable", attempt: 1)])
        #expect(
            machine.sessionCreated(attempt: 1, outcome: .interactive(url: "http://s/login", code: "ABC", notAfter: nil), deviceMode: false)
                == [.navigate(url: "http://s/login", mvpd: "DemoCable")])
        #expect(machine.externalURL(error: nil) == [.fetchProfile(mvpd: "DemoCable", attempt: 1)])
        #expect(machine.externalURL(error: nil) == [])
        #expect(machine.profileFetched(attempt: 1, result: .success("DemoCable")) == [.reportAuthenticated(mvpd: "DemoCable", cached: false)])
        #expect(machine.externalURL(error: nil) == [])
    }

    @Test func cancelResetsAndReportsProviderNotSelected() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("DemoCable", known: true)
        _ = machine.sessionCreated(attempt: 1, outcome: .interactive(url: "u", code: nil, notAfter: nil), deviceMode: false)
        #expect(machine.selectProvider(nil, known: false) == [.reportFailure(code: PROVIDER_NOT_SELECTED_ERROR, statusID: nil)])
        #expect(machine.state == .idle)
        #expect(machine.externalURL(error: nil) == [])
    }

    @Test func unknownProviderFails() {
        var machine = AuthenticationStateMachine()
        #expect(
            machine.selectProvider("Nope", known: false)
                == [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.authenticationInternal)])
    }

    @Test func tempPassGoesStraightToTheProfile() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("TempPass", known: true)
        #expect(
            machine.sessionCreated(attempt: 1, outcome: .direct(mvpd: "TempPass"), deviceMode: false)
                == [.fetchProfile(mvpd: "TempPass", attempt: 1)])
    }

    @Test func staleSessionAnswerIsIgnored() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("A", known: true)
        _ = machine.selectProvider("B", known: true)
        #expect(machine.sessionCreated(attempt: 1, outcome: .direct(mvpd: "A"), deviceMode: false) == [])
        #expect(machine.sessionCreated(attempt: 2, outcome: .direct(mvpd: "B"), deviceMode: false) == [.fetchProfile(mvpd: "B", attempt: 2)])
    }

    @Test func secondScreenShowsCodeAndANewCodeStopsTheOldPolling() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("DemoCable", known: true)
        let expiry = Date(timeIntervalSince1970: 100)
        #expect(
            machine.sessionCreated(attempt: 1, outcome: .interactive(url: "http://s/a/CODE1", code: "CODE1", notAfter: expiry), deviceMode: true)
                == [.startPolling(code: "CODE1", url: "http://s/a/CODE1", notAfter: expiry, mvpd: "DemoCable", attempt: 1)])
        #expect(machine.startSecondScreen() == [.stopPolling, .createSession(mvpd: nil, attempt: 2)])
        #expect(machine.secondScreenFinished(attempt: 1, result: .success("DemoCable")) == [])
    }

    @Test func secondScreenWithoutCodeFails() {
        var machine = AuthenticationStateMachine()
        _ = machine.startSecondScreen()
        #expect(
            machine.sessionCreated(attempt: 1, outcome: .interactive(url: "u", code: nil, notAfter: nil), deviceMode: true)
                == [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.registrationCodeFailed)])
    }

    @Test func errorInRedirectFailsTheFlow() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("A", known: true)
        _ = machine.sessionCreated(attempt: 1, outcome: .interactive(url: "u", code: nil, notAfter: nil), deviceMode: false)
        #expect(
            machine.externalURL(error: "access_denied")
                == [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: AccessEnablerStatus.ID.authenticationNotFound)])
    }

    @Test func sessionFailureIsReported() {
        var machine = AuthenticationStateMachine()
        _ = machine.selectProvider("A", known: true)
        #expect(
            machine.sessionCreated(attempt: 1, outcome: .failed(statusID: "R401"), deviceMode: false)
                == [.reportFailure(code: GENERIC_AUTHENTICATION_ERROR, statusID: "R401")])
    }
}
