import Foundation
import Testing
@testable import AccessEnabler

@Suite struct AccessTokenStateMachineTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let credentials = ClientCredentials(clientID: "c", clientSecret: "s", redirectURIs: [])

    @Test func registersFirstThenFetchesToken() {
        var machine = AccessTokenStateMachine()
        #expect(machine.tokenNeeded(now: now) == .register)
        #expect(machine.registered(credentials) == .fetchToken(credentials))
        machine.refreshSucceeded(CachedAccessToken(value: "t1", expiresAt: now.addingTimeInterval(3600)))
        #expect(machine.tokenNeeded(now: now) == .use("t1"))
    }

    @Test func concurrentCallersWaitForOneRefresh() {
        var machine = AccessTokenStateMachine(credentials: credentials)
        #expect(machine.tokenNeeded(now: now) == .fetchToken(credentials))
        #expect(machine.tokenNeeded(now: now) == .wait)
        #expect(machine.tokenNeeded(now: now) == .wait)
        machine.refreshSucceeded(CachedAccessToken(value: "t", expiresAt: now.addingTimeInterval(3600)))
        #expect(machine.tokenNeeded(now: now) == .use("t"))
    }

    @Test func tokenNearExpiryIsRefreshed() {
        var machine = AccessTokenStateMachine(credentials: credentials)
        _ = machine.tokenNeeded(now: now)
        machine.refreshSucceeded(CachedAccessToken(value: "t", expiresAt: now.addingTimeInterval(30)))
        #expect(machine.tokenNeeded(now: now) == .fetchToken(credentials))
    }

    @Test func rejectionDropsOnlyTheCurrentToken() {
        var machine = AccessTokenStateMachine(credentials: credentials)
        _ = machine.tokenNeeded(now: now)
        machine.refreshSucceeded(CachedAccessToken(value: "new", expiresAt: now.addingTimeInterval(3600)))
        #expect(machine.tokenRejected("old", clientRevoked: false) == false)
        #expect(machine.tokenNeeded(now: now) == .use("new"))
        #expect(machine.tokenRejected("new", clientRevoked: false) == true)
        #expect(machine.tokenNeeded(now: now) == .fetchToken(credentials))
    }

    @Test func revokedClientRegistersAgain() {
        var machine = AccessTokenStateMachine(credentials: credentials)
        _ = machine.tokenNeeded(now: now)
        machine.refreshSucceeded(CachedAccessToken(value: "t", expiresAt: now.addingTimeInterval(3600)))
        machine.tokenRejected("t", clientRevoked: true)
        #expect(machine.credentials == nil)
        #expect(machine.tokenNeeded(now: now) == .register)
    }

    @Test func failedRefreshLetsTheNextCallerTryAgain() {
        var machine = AccessTokenStateMachine(credentials: credentials)
        _ = machine.tokenNeeded(now: now)
        machine.refreshFailed()
        #expect(machine.tokenNeeded(now: now) == .fetchToken(credentials))
        #expect(machine.credentialsRejected() == .register)
    }
}
