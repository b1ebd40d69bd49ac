import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler

@Suite struct AuthorizationStateMachineTests {
    typealias Machine = AuthorizationStateMachine

    @Test func checkNeverStartsAuthentication() {
        var machine = Machine()
        let request = Machine.Request(id: 1, resource: "news", mode: .check)
        #expect(machine.authorize(request, authenticated: false, authenticationInProgress: false) == [.failNotAuthenticated(request)])
        #expect(machine.waiting.isEmpty)
    }

    @Test func getStartsAuthenticationOnceAndContinues() {
        var machine = Machine()
        let first = Machine.Request(id: 1, resource: "news", mode: .get)
        let second = Machine.Request(id: 2, resource: "sports", mode: .get)
        #expect(machine.authorize(first, authenticated: false, authenticationInProgress: false) == [.startAuthentication])
        #expect(machine.authorize(second, authenticated: false, authenticationInProgress: true) == [])
        #expect(machine.authenticationFinished(success: true) == [.decide(first), .decide(second)])
        #expect(machine.authenticationFinished(success: true) == [])
    }

    @Test func failedAuthenticationFailsWaitingRequests() {
        var machine = Machine()
        let request = Machine.Request(id: 1, resource: "news", mode: .get)
        _ = machine.authorize(request, authenticated: false, authenticationInProgress: false)
        #expect(machine.authenticationFinished(success: false) == [.failNotAuthenticated(request)])
    }

    @Test func authenticatedDecidesAtOnce() {
        var machine = Machine()
        let request = Machine.Request(id: 1, resource: "news", mode: .check)
        #expect(machine.authorize(request, authenticated: true, authenticationInProgress: false) == [.decide(request)])
    }

    @Test func grantedDecisionGivesTheToken() {
        let decision = EntitleCore.Decision(
            resource: "news", serviceProvider: "REF", mvpd: "DemoCable", source: "mvpd", authorized: true,
            token: MediaTokenInfo(notBefore: 1, notAfter: 2, serializedToken: "TOKEN"), notAfter: 5_000)
        #expect(Machine.outcome(of: decision) == .token("TOKEN", notAfter: Date(timeIntervalSince1970: 5), statusID: nil))
    }

    @Test func denialCarriesTheMVPDMessage() {
        let error = EnhancedError.authorizationDeniedByMVPD.with(details: "Your Demo Cable package does not include movies.")
        let decision = EntitleCore.Decision(
            resource: "movies", serviceProvider: "REF", mvpd: "DemoCable", source: "mvpd", authorized: false, error: error)
        #expect(
            Machine.outcome(of: decision)
                == .failed(
                    code: USER_NOT_AUTHORIZED_ERROR,
                    description: "Your Demo Cable package does not include movies.",
                    statusID: "Z100"))
    }

    @Test func parentalControlIsADenial() {
        #expect(
            Machine.outcome(of: EnhancedError.authorizationDeniedByParentalControls)
                == .failed(
                    code: USER_NOT_AUTHORIZED_ERROR, description: EnhancedError.authorizationDeniedByParentalControls.message,
                    statusID: "Z100"))
    }

    @Test func expiredProfileLosesAuthentication() {
        #expect(
            Machine.outcome(of: EnhancedError.authenticatedProfileExpired)
                == .authenticationLost(description: EnhancedError.authenticatedProfileExpired.message, statusID: "N130"))
        #expect(
            Machine.outcome(of: EnhancedError.temporaryAccessDurationLimitExceeded)
                == .authenticationLost(description: EnhancedError.temporaryAccessDurationLimitExceeded.message, statusID: "N111"))
    }

    @Test func failuresMapToGenericAuthorizationError() {
        #expect(
            Machine.outcome(of: AccessEnablerError(code: .network, message: "down"))
                == .failed(code: GENERIC_AUTHORIZATION_ERROR, description: "down", statusID: "Z120"))
        #expect(
            Machine.outcome(of: AccessEnablerError(code: .throttled, message: "slow down"))
                == .failed(code: GENERIC_AUTHORIZATION_ERROR, description: "slow down", statusID: "Z100"))
        #expect(
            Machine.outcome(of: EnhancedError.invalidResources)
                == .failed(code: GENERIC_AUTHORIZATION_ERROR, description: EnhancedError.invalidResources.message, statusID: "Z130"))
        #expect(
            Machine.outcome(of: nil as EntitleCore.Decision?)
                == .failed(code: INTERNAL_AUTHORIZATION_ERROR, description: "The service returned no decision.", statusID: "Z500"))
    }

    @Test func preauthorizationCacheHonoursExpiry() {
        var cache = PreauthorizationCache()
        let now = Date(timeIntervalSince1970: 1_000)
        cache.store(
            [
                EntitleCore.Decision(resource: "news", serviceProvider: "REF", mvpd: "M", source: "mvpd", authorized: true, notAfter: 1_060_000),
                EntitleCore.Decision(resource: "movies", serviceProvider: "REF", mvpd: "M", source: "mvpd", authorized: false, notAfter: 1_060_000),
            ],
            mvpd: "M", now: now)
        let hit = cache.lookup(["news", "movies", "sports"], mvpd: "M", now: now)
        #expect(hit.known == ["news": true, "movies": false])
        #expect(hit.missing == ["sports"])
        #expect(cache.lookup(["news"], mvpd: "M", now: now.addingTimeInterval(61)).missing == ["news"])
        #expect(cache.lookup(["news"], mvpd: "Other", now: now).missing == ["news"])
    }
}
