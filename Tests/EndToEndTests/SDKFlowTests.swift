import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// The AccessEnabler SDK against the real Entitle service and DemoMVPD over real sockets — no mock of the service.
@Suite struct SDKFlowTests {
    @Test func cookbookInAppFlowWithTheDelegateAPI() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            app.enabler.setRequestor("REF")
            #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(1)")
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            app.enabler.getAuthentication()
            let dialog = try await app.waitFor("displayProviderDialog")
            #expect(dialog.contains("DemoCable") && dialog.contains("TempPass"))
            app.enabler.setSelectedProvider("DemoCable")
            _ = try await app.waitFor("navigate")
            #expect(try await app.waitFor("setAuthenticationStatus(1") == "setAuthenticationStatus(1,)")
            app.enabler.getAuthorization("news")
            _ = try await app.waitFor("setToken(news)")
            let token = try #require(app.tokens.withLock { $0["news"] })
            let pem = try await service.client().send(.GET, "/keys/media-token", authorized: false).text
            let verdict = await MediaTokenVerifier(keys: try VerificationKeySet(pem: pem)).verify(
                token, requestor: "REF", resource: "news", now: Date())
            #expect(verdict.status == .valid)

            // The order of the cookbook: configuration, picker, navigation, authenticated, token.
            let order = app.log.filter { !$0.hasPrefix("status") && !$0.hasPrefix("sendTracking") && !$0.hasPrefix("selectedProvider") }
            #expect(
                Array(order.prefix(5)) == [
                    "setRequestorComplete(1)", "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
                    dialog, "navigate", "setAuthenticationStatus(1,)",
                ])

            // Authenticated now: getAuthentication answers without a picker.
            app.enabler.getAuthentication()
            try await Task.sleep(for: .milliseconds(300))
            #expect(app.log.filter { $0.hasPrefix("displayProviderDialog") }.count == 1)
        }
    }

    @Test func bobIsDeniedWithTheMVPDsMessage() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            app.credentials.withLock { $0 = ("bob", "bob-pass") }
            try await app.enabler.configure(requestorID: "REF")
            let flow = Task { try await app.enabler.authenticate(mvpd: "DemoCable") }
            #expect(try await flow.value == "DemoCable")
            app.enabler.getAuthorization("movies")
            let failure = try await app.waitFor("tokenRequestFailed(movies")
            #expect(failure.contains(USER_NOT_AUTHORIZED_ERROR))
            #expect(failure.contains("TV-MA"))
            do throws(AccessEnablerError) {
                _ = try await app.enabler.authorize("movies")
                Issue.record("movies should be denied")
            } catch {
                #expect(error.details?.contains("TV-MA") == true)
            }
            #expect(try await app.enabler.authorize("sports").isEmpty == false)
        }
    }

    @Test func asyncAPIAuthorizesPreauthorizesReadsMetadataAndSignsOut() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            let mvpds = try await app.enabler.configure(requestorID: "REF")
            #expect(mvpds.contains { $0.ID == "DemoFiber" })
            try await app.enabler.authenticate(mvpd: "DemoCable")
            #expect(await app.enabler.authenticatedMVPD() == "DemoCable")
            let token = try await app.enabler.authorize("news")
            #expect(!token.isEmpty)
            #expect(try await app.enabler.preauthorize(["news", "sports", "movies", "kids"]) == ["news", "sports", "movies"])
            let household = try await app.enabler.userMetadata("householdID")
            #expect("\(household)".contains("H-1001"))
            try await app.enabler.signOut()
            #expect(await app.enabler.authenticatedMVPD() == nil)
            do throws(AccessEnablerError) {
                _ = try await app.enabler.authorize("news")
                Issue.record("authorization after logout should fail")
            } catch {
                #expect(error.code == AccessEnablerError.Code.notAuthenticated)
            }
        }
    }

    @Test func secondScreenLoginWithTheActivationCode() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service, secondScreen: true)
            try await app.enabler.configure(requestorID: "REF")
            let codes = AsyncStream<String>.makeStream()
            let login = Task {
                try await app.enabler.authenticateWithSecondScreen(mvpd: nil) { code in codes.continuation.yield(code.code) }
            }
            var iterator = codes.stream.makeAsyncIterator()
            let code = try #require(await iterator.next())
            // A person on a phone: activation page, provider, login.
            let outcome = try await DemoSignIn.signIn(
                browser: service.browser(),
                authenticationURL: service.baseURL + "/api/v2/authenticate/REF/\(code)?mvpd=DemoCable",
                username: "alice", password: "alice-pass")
            guard case .page = outcome else { Issue.record("browser leg did not end on the success page"); return }
            #expect(try await login.value == "DemoCable")
            #expect(try await app.enabler.authorize("movies").isEmpty == false)
        }
    }

    @Test func tempPassNeedsNoPage() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            try await app.enabler.configure(requestorID: "REF")
            app.enabler.getAuthentication()
            _ = try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("TempPass")
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            #expect(!app.log.contains("navigate"))
            #expect(try await app.enabler.authorize("movies").isEmpty == false)
        }
    }

    @Test func checkAuthorizationNeverStartsAuthentication() async throws {
        try await LocalService.run { service in
            let app = TestApp(service: service)
            app.enabler.setRequestor("REF")
            _ = try await app.waitFor("setRequestorComplete")
            app.enabler.checkAuthorization("news")
            let failure = try await app.waitFor("tokenRequestFailed(news")
            #expect(failure.contains(USER_NOT_AUTHENTICATED_ERROR))
            #expect(!app.log.contains { $0.hasPrefix("displayProviderDialog") || $0 == "navigate" })
        }
    }
}
