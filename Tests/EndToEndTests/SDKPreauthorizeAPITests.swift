import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization
import Testing

/// Adobe's Preauthorize API (SDK 3.6+) against the real service: an Adobe-style call site (builder, callback object)
/// compiles unchanged and gets a decision per resource with the MVPD's Enhanced Error Code for a denial; the SDK's
/// own failures go to `onFailure` with Adobe's codes; `LOCAL_CACHE` and `REMOTE_CACHE` can be disabled.
@Suite struct SDKPreauthorizeAPITests {
    /// Collects what the callback receives.
    final class Outcomes: Sendable {
        let received = Mutex<[(failed: Bool, response: PreauthorizeResponse)]>([])

        var callback: AccessEnablerCallback<PreauthorizeResponse> {
            // As in Adobe's sample code: two functions handed to the callback's initializer.
            func onResponseCallback(result: PreauthorizeResponse) { received.withLock { $0.append((false, result)) } }
            func onFailureCallback(result: PreauthorizeResponse) { received.withLock { $0.append((true, result)) } }
            return AccessEnablerCallback<PreauthorizeResponse>(onResponse: onResponseCallback, onFailure: onFailureCallback)
        }

        func next(_ count: Int) async throws -> (failed: Bool, response: PreauthorizeResponse) {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let outcome = received.withLock({ $0.count >= count ? $0[count - 1] : nil }) { return outcome }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw BrowserError("the Preauthorize API never answered")
        }
    }

    @Test func anAdobeStyleCallSiteGetsADecisionPerResourceWithTheMVPDsReason() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            let outcomes = Outcomes()
            try await app.configure()

            // Not signed in: the SDK's own failure, as Adobe's SDK names it.
            let resources: [String] = ["news", "movies", "kids"]
            let request: PreauthorizeRequest = PreauthorizeRequest.Builder().setResources(resources: resources).build()
            app.enabler.preauthorize(request, outcomes.callback)
            let missing = try await outcomes.next(1)
            #expect(missing.failed && missing.response.getDecisions().isEmpty)
            #expect(missing.response.getStatus()?.getStatus() == 0 && missing.response.getStatus()?.getCode() == "authentication_session_missing")
            #expect(missing.response.getStatus()?.getAction() == "authentication")
            #expect(app.wire.exchanges("/decisions/preauthorize").isEmpty)

            try await app.signIn(user: "bob")
            app.enabler.preauthorize(request, didCompleteWith: outcomes.callback)
            let answered = try await outcomes.next(2)
            #expect(!answered.failed && answered.response.getStatus() == nil)
            let decisions = answered.response.getDecisions()
            #expect(decisions.map { $0.getId() } == resources, "one decision per resource, in request order")
            #expect(decisions.map { $0.isAuthorized() } == [true, false, false])
            let denial = try #require(decisions[1].getError())
            #expect(denial.getStatus() == 403 && denial.getCode() == "authorization_denied_by_parental_controls", "\(denial.getCode() ?? "nil")")
            #expect(denial.getTrace()?.isEmpty == false && denial.getHelpUrl()?.hasPrefix("https://") == true)
            #expect(app.wire.exchanges("/decisions/preauthorize").count == 1)

            // The SDK's cache answers the same question without a call, unless LOCAL_CACHE is disabled.
            app.enabler.preauthorize(request: request, callback: outcomes.callback)
            #expect(try await outcomes.next(3).response.getDecisions().map { $0.isAuthorized() } == [true, false, false])
            #expect(app.wire.exchanges("/decisions/preauthorize").count == 1)
            let noLocalCache = PreauthorizeRequest.Builder().setResources(resources: ["news"])
                .disableFeatures(features: [PreauthorizeRequest.Feature.LOCAL_CACHE]).build()
            app.enabler.preauthorize(noLocalCache, didCompleteWith: outcomes.callback)
            #expect(try await outcomes.next(4).response.getDecisions().map { $0.isAuthorized() } == [true])
            #expect(app.wire.exchanges("/decisions/preauthorize").count == 2)
            #expect(app.wire.exchanges("/decisions/preauthorize").last?.request.header("Cache-Control") == nil)

            // REMOTE_CACHE disabled: the service asks the MVPD again instead of its kept answer.
            let callsBefore = service.service.caches.authorizations.mvpdCalls
            let noCache = PreauthorizeRequest.Builder().setResources(resources: ["news"])
                .disableFeatures(features: [.LOCAL_CACHE, .REMOTE_CACHE]).build()
            app.enabler.preauthorize(noCache, didCompleteWith: outcomes.callback)
            #expect(try await outcomes.next(5).response.getDecisions().first?.isAuthorized() == true)
            #expect(app.wire.exchanges("/decisions/preauthorize").last?.request.header("Cache-Control") == "no-cache")
            #expect(service.service.caches.authorizations.mvpdCalls == callsBefore + 1, "the MVPD was asked again")
            app.enabler.preauthorize(noLocalCache, didCompleteWith: outcomes.callback)
            _ = try await outcomes.next(6)
            #expect(service.service.caches.authorizations.mvpdCalls == callsBefore + 1, "with the remote cache, the kept answer")
        }
    }

    @Test func aServiceErrorIsAResponseWithItsStatusAndAnUnconfiguredSDKAFailure() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            let outcomes = Outcomes()
            try await app.configure()
            try await app.signIn(user: "bob")
            // More resources than the requestor allows: the service's Enhanced Error Code, through onResponse.
            let many = PreauthorizeRequest.Builder().setResources(resources: (1...40).map { "resource-\($0)" }).build()
            app.enabler.preauthorize(many, didCompleteWith: outcomes.callback)
            let refused = try await outcomes.next(1)
            #expect(!refused.failed && refused.response.getDecisions().isEmpty)
            #expect(refused.response.getStatus()?.getStatus() == 403, "\(refused.response.getStatus()?.getCode() ?? "nil")")
            #expect(refused.response.getStatus()?.getCode() == "too_many_resources")

            // A requestor the service does not know: setRequestor fails, and so does every preauthorization.
            let unknown = SDKProbe(service: service)
            unknown.enabler.setRequestor("NOPE")
            _ = try await unknown.waitFor("setRequestorComplete")
            unknown.enabler.preauthorize(many, didCompleteWith: outcomes.callback)
            let unconfigured = try await outcomes.next(2)
            #expect(unconfigured.failed && unconfigured.response.getStatus()?.getCode() == "requestor_not_configured")
        }
    }
}
