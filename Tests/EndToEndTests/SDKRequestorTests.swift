import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// `setRequestor` in all its forms (several service providers, called again to resynchronise, the deprecated
/// signed-requestor variants) and `setRequestorComplete`, against real services in process.
@Suite struct SDKRequestorTests {
    @Test func anUnknownRequestorFailsTheConfiguration() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.enabler.setRequestor("NOPE")
            #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(0)")
            let status = try #require(app.statuses.withLock { $0.first })
            #expect(status[STATUS_ERROR_ID_KEY]?.hasPrefix("CFG") == true, "\(status)")
            #expect(status[STATUS_LEVEL_KEY] == "error")
            do throws(AccessEnablerError) {
                _ = try await app.enabler.providers()
                Issue.record("providers() must fail without a configuration")
            } catch {
                #expect(error.code == AccessEnablerError.Code.notConfigured)
            }
        }
    }

    @Test func oneRealAndOneUnreachableServiceProvider() async throws {
        try await LocalService.run { service in
            let unreachable = "http://127.0.0.1:\(try freePort())"
            let app = SDKProbe(service: service)
            app.enabler.setRequestor("REF", serviceProviders: [unreachable, service.baseURL + "/adobe-services"])
            #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(1)")
            let realPort = URL(string: service.baseURL)!.port
            let deadPort = URL(string: unreachable)!.port
            #expect(app.wire.all.contains { $0.port == deadPort && $0.response == nil })
            #expect(app.wire.exchanges("/configuration").contains { $0.port == realPort && $0.response?.status == 200 })
            app.enabler.getAuthentication()
            let dialog = try await app.waitFor("displayProviderDialog")
            #expect(dialog.contains("DemoCable") && dialog.contains("TempPass"))
            try await app.signIn()
            app.enabler.getAuthorization("news")
            try await app.waitFor("setToken(news)")
            // Every entitlement call went to the service that listed the MVPD.
            let entitlement = app.wire.all.filter {
                $0.path.contains("/sessions") || $0.path.contains("/profiles/") || $0.path.contains("/decisions/")
            }
            #expect(!entitlement.isEmpty && entitlement.allSatisfy { $0.port == realPort })
        }
    }

    @Test func noReachableServiceProviderFailsWithCFG404() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.enabler.setRequestor("REF", serviceProviders: ["http://127.0.0.1:\(try freePort())", "http://127.0.0.1:\(try freePort())"])
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(0)")
            #expect(app.lines("status(CFG404)").count == 1)
            // The queued call still gets its answer, after setRequestorComplete.
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            #expect(app.wire.all.allSatisfy { $0.port != URL(string: service.baseURL)!.port })
        }
    }

    /// Two services with the same demo world (one copied from the other's data directory), plus an MVPD only the
    /// second one offers: the lists are merged and calls for that MVPD go to the second service.
    @Test func twoServiceProvidersAreMergedAndEachMVPDRoutesToItsService() async throws {
        let base = NSTemporaryDirectory() + "entitle-e2e-" + UUID().uuidString
        let first = base + "-a", second = base + "-b"
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        try await LocalService.run(dataDirectory: first) { _ in }
        try FileManager.default.copyItem(atPath: first, toPath: second)
        try await LocalService.run(dataDirectory: first) { a in
            try await LocalService.run(dataDirectory: second) { b in
                try await b.service.mvpds.saveTempPass(
                    id: "TempPassB", displayName: "Only at B", logoURL: b.baseURL + "/logos/TempPass.svg",
                    minutes: 10, requestors: ["REF"])
                let app = SDKProbe(service: a)
                app.enabler.setRequestor("REF", serviceProviders: [a.baseURL, b.baseURL + "/adobe-services/"])
                #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(1)")
                let portA = URL(string: a.baseURL)!.port, portB = URL(string: b.baseURL)!.port
                #expect(Set(app.wire.exchanges("/configuration").map(\.port)) == [portA, portB])
                app.enabler.getAuthentication()
                try await app.waitFor("displayProviderDialog")
                let listed = try #require(app.providerLists.withLock { $0.first }).map(\.ID)
                #expect(Set(listed) == ["DemoCable", "DemoFiber", "DemoSSO", "DemoStream", "TempPass", "TempPassPromo", "TempPassB"])
                #expect(listed.count == 7, "each MVPD once: \(listed)")

                try await app.signIn(mvpd: "TempPassB")
                #expect(app.wire.exchanges("/sessions", method: "POST").last?.port == portB)
                app.enabler.getAuthorization("news")
                try await app.waitFor("setToken(news)")
                #expect(app.wire.exchanges("/decisions/authorize/TempPassB").last?.port == portB)
                #expect(await app.enabler.authenticatedMVPD() == "TempPassB")
            }
        }
    }

    @Test func setRequestorAgainDropsALoginEndedElsewhere() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            // Another part of the app (same registration, same device) signs out at the service.
            let headers = try app.lastAPIHeaders().filter {
                ["authorization", "ap-device-identifier", "x-device-info", "user-agent"].contains($0.key.lowercased())
            }
            let logout = HTTPRequest(method: "GET", url: URL(string: service.baseURL + "/api/v2/REF/logout/DemoCable")!, headers: headers)
            #expect(try await URLSessionTransport().send(logout).status == 200)
            // checkAuthentication is local: still authenticated until the resynchronisation.
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(1,)")
            app.enabler.setRequestor("REF")
            #expect(try await app.waitFor("setRequestorComplete", count: 2) == "setRequestorComplete(1)")
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 3) == "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))")
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider") == "selectedProvider(nil)")
        }
    }

    @Test func setRequestorAgainAdoptsALoginMadeElsewhere() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.checkAuthentication()
            try await app.waitFor("setAuthenticationStatus(0,")
            // Another part of the app (same registration, same device) starts a TempPass at the service.
            var headers = try app.lastAPIHeaders().filter {
                ["authorization", "ap-device-identifier", "x-device-info", "user-agent"].contains($0.key.lowercased())
            }
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            let session = HTTPRequest(
                method: "POST", url: URL(string: service.baseURL + "/api/v2/REF/sessions")!, headers: headers,
                body: Data("mvpd=TempPass&redirectUrl=adobepass%3A%2F%2Fios.app".utf8))
            let answer = try await URLSessionTransport().send(session)
            #expect(try JSONDecoder().decode(SessionResponse.self, from: answer.body).actionName == "authorize")
            app.enabler.setRequestor("REF")
            #expect(try await app.waitFor("setRequestorComplete", count: 2) == "setRequestorComplete(1)")
            app.enabler.checkAuthentication()
            #expect(try await app.waitFor("setAuthenticationStatus", count: 2) == "setAuthenticationStatus(1,)")
            app.enabler.getSelectedProvider()
            #expect(try await app.waitFor("selectedProvider") == "selectedProvider(TempPass)")
        }
    }

    @Test func callsMadeBeforeSetRequestorCompleteAreQueuedInOrder() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.enabler.setRequestor("REF")
            app.enabler.checkAuthentication()
            app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID])
            app.enabler.getSelectedProvider()
            app.enabler.checkPreauthorizedResources(["news"])
            app.enabler.checkAuthorization("news")
            try await app.waitFor("tokenRequestFailed")
            let order = app.log.filter { !$0.hasPrefix("status") && !$0.hasPrefix("sendTracking") }
            #expect(
                order == [
                    "setRequestorComplete(1)", "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
                    "setMetadataStatus(\(METADATA_DEVICE_ID),false)", "selectedProvider(nil)", "preauthorizedResources()",
                    "setAuthenticationStatus(0,\(USER_NOT_AUTHENTICATED_ERROR))",
                    "tokenRequestFailed(news,\(USER_NOT_AUTHENTICATED_ERROR),)",
                ])
        }
    }

    @Test @available(*, deprecated) func deprecatedSignedRequestorVariantsConfigureAndNeverSendTheSignature() async throws {
        try await LocalService.run { service in
            let signature = "SIGNED-REF-3f9a"
            let calls: [(SDKProbe) -> Void] = [
                { $0.enabler.setRequestor("REF", signedRequestorID: signature) },
                { $0.enabler.setRequestor("REF", signedRequestorID: signature, serviceProviders: [service.baseURL]) },
                { $0.enabler.setRequestor("REF", signedRequestorID: signature, secret: "tv-secret", publicKey: "tv-public-key") },
                {
                    $0.enabler.setRequestor(
                        "REF", signedRequestorID: signature, serviceProviders: [service.baseURL],
                        secret: "tv-secret", publicKey: "tv-public-key")
                },
            ]
            for call in calls {
                let app = SDKProbe(service: service)
                call(app)
                #expect(try await app.waitFor("setRequestorComplete") == "setRequestorComplete(1)")
                app.enabler.getAuthentication()
                try await app.waitFor("displayProviderDialog(")
                let wire = app.wire.all.map { exchange in
                    exchange.request.url.absoluteString + "\(exchange.request.headers)"
                        + String(decoding: exchange.request.body ?? Data(), as: UTF8.self)
                }.joined()
                #expect(!wire.isEmpty)
                for secret in [signature, "tv-secret", "tv-public-key"] { #expect(!wire.contains(secret)) }
            }
        }
    }

    @Test @available(*, deprecated) func deprecatedGetAuthenticationTokenCompletesTheLogin() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            app.play.withLock { $0 = .manual }
            try await app.configure()
            app.enabler.getAuthentication(["DemoCable"])
            try await app.waitFor("displayProviderDialog(")
            app.enabler.setSelectedProvider("DemoCable")
            try await app.waitFor("navigate(")
            _ = try await app.browseLogin(try #require(app.navigations.withLock { $0.first?.url }))
            app.enabler.getAuthenticationToken()
            #expect(try await app.waitFor("setAuthenticationStatus") == "setAuthenticationStatus(1,)")
            // The array filter with forceAuthn shows the picker again although authenticated.
            app.enabler.getAuthentication(true, withData: nil, andFilter: ["DemoCable"])
            try await app.waitFor("displayProviderDialog(", count: 2)
            #expect(app.providerLists.withLock { $0.map(\.count) } == [6, 6])  // every demo MVPD, DemoStream included
        }
    }
}
