import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import MediaTokenVerifier
import Testing

/// A running service: throttling, key rotation, two instances on one database, health and metrics, a port already in
/// use, a restart.
@Suite struct RunningServiceTests {
    @Test func perDeviceTokenBucketAnswers429WithRetryAfter() async throws {
        try await LocalService.run(rateLimit: 1, burst: 5) { host in
            let tv = try await host.client(device: "throttled")  // register + token: 2 of 5
            for _ in 0..<3 { #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200) }
            let refused = try await tv.send(.GET, "/api/v2/REF/configuration")
            #expect(refused.status == 429)
            #expect(try refused.decode(EnhancedError.self).code == "too_many_requests")
            #expect(Int(refused.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
            // Other devices are not affected; the bucket refills with time.
            let other = try await host.client(device: "other")
            #expect(try await other.send(.GET, "/api/v2/REF/configuration").status == 200)
            host.clock.advance(by: 2)
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
            // The throttle does not touch the browser pages or health checks.
            #expect(try await tv.send(.GET, "/healthz", authorized: false).status == 200)
        }
    }

    @Test func rotatedMediaTokenKeysStayPublishedUntilTokensExpire() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "alice")
            func token() async throws -> String {
                let decision = try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions[0]
                return try #require(decision.token?.serializedToken)
            }
            let before = try await token()
            // Promoted at once here; KeyRotationTests covers the default delay across instances.
            try await host.service.keys.rotate(purpose: KeyPurpose.mediaToken, promoteAfter: 0)
            let after = try await token()
            let pem = try await tv.send(.GET, "/keys/media-token", authorized: false).text
            #expect(pem.components(separatedBy: "BEGIN CERTIFICATE").count - 1 == 2)
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))
            #expect(await verifier.verify(before, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(await verifier.verify(after, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            // Only the new key verifies the new token.
            let newOnly = MediaTokenVerifier(
                keys: try VerificationKeySet(pem: try await host.service.keys.signingIdentity(purpose: KeyPurpose.mediaToken).certificatePEM))
            #expect(await newOnly.verify(before, requestor: "REF", resource: "news", now: host.clock.now()).status == .invalidSignature)
            host.clock.advance(by: 25 * 3600)
            let later = try await tv.send(.GET, "/keys/media-token", authorized: false).text
            #expect(later.components(separatedBy: "BEGIN CERTIFICATE").count - 1 == 1)
        }
    }

    @Test func twoInstancesOnOneDatabaseBehaveAsOne() async throws {
        let clock = ManualClock()
        try await LocalService.runTwoInstances(clock: clock) { first, second in
            #expect(first.baseURL != second.baseURL)
            // The TV talks to the first instance; the browser leg goes through the second.
            let tv = try await first.client()
            let session = try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            let code = try #require(session.code)
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)").status == 404)
            let outcome = try await DemoSignIn.signIn(
                browser: second.browser(), authenticationURL: second.baseURL + session.url!,
                username: "alice", password: "alice-pass")
            guard case .external(let redirect) = outcome else { Issue.record("login on the second instance failed: \(outcome)"); return }
            #expect(redirect == "adobepass://ios.app")
            // The first instance learns of a profile made by the second within the profile cache's bound (SQLite: the
            // next read after it polls `profile_changes`), not at once: its read of the code above is that recent.
            try await Task.sleep(for: ProfileCache.defaultBound + .milliseconds(50))
            #expect(try await tv.send(.GET, "/api/v2/REF/profiles/code/\(code)").status == 200)
            // The same client and device get decisions from either instance.
            var viaSecond = RESTClient(httpClient: second.httpClient, baseURL: second.baseURL, serviceProvider: "REF", deviceID: tv.deviceID)
            viaSecond.accessToken = tv.accessToken
            let decision = try await viaSecond.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self)
            #expect(decision.decisions[0].authorized)
        }
    }

    @Test func healthMetricsAndDocuments() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await tv.send(.GET, "/api/v2/REF/configuration")
            #expect(try await tv.send(.GET, "/healthz", authorized: false).text.contains("ok"))
            let metrics = try await tv.send(.GET, "/metrics", authorized: false).text
            #expect(metrics.contains("entitle_http_requests_total"))
            #expect(metrics.contains("/api/v2/{sp}/configuration") || metrics.contains("/api/v2/:sp/configuration"))
            #expect(!metrics.contains(tv.accessToken!))
            let metadata = try await tv.send(.GET, "/sp/saml/metadata", authorized: false)
            #expect(metadata.status == 200)
            #expect(metadata.text.contains("SAMLAssertionConsumer"))
        }
    }

    @Test func aPortInUseIsNamedAsTakenAndNothingRuns() async throws {
        let holder = try SilentListener()
        defer { withExtendedLifetime(holder) {} }
        let directory = NSTemporaryDirectory() + "entitle-taken-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = HostConfiguration()
        configuration.port = holder.port
        configuration.dataDirectory = directory
        let database = try await ScratchDatabase.create()
        configuration.databaseURL = database?.url
        var ran = false
        await #expect(throws: EntitleHost.PortTaken.self) {
            try await EntitleHost.serveOnce(configuration: configuration, logger: Logger(label: "entitle.test"), clock: ManualClock()) { _ in
                ran = true
            }
        }
        #expect(!ran)
        try? await database?.drop()
    }

    @Test func restartKeepsData() async throws {
        let directory = NSTemporaryDirectory() + "entitle-restart-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let database = try await ScratchDatabase.create()
        var saved: RESTClient?
        var statement = ""
        try await LocalService.run(databaseURL: database?.url, dataDirectory: directory) { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "alice")
            saved = tv
            statement = host.softwareStatement
        }
        try await LocalService.run(databaseURL: database?.url, dataDirectory: directory) { host in
            #expect(host.softwareStatement == statement)
            var tv = try #require(saved)
            tv = RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: tv.deviceID)
            tv.accessToken = saved?.accessToken
            let profiles = try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self)
            #expect(profiles.profiles["DemoCable"] != nil)
        }
        try? await database?.drop()
    }
}
