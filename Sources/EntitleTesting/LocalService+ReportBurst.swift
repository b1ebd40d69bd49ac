import EntitleClients
import EntitleCore
import Foundation

/// A scripted burst of traffic for the reports, over REST v2 against the demo world, whose figures are known:
/// alice on iOS (2 plays, a preauthorization of 3 resources, all granted), bob on Android TV (1 play, 1 denial, a
/// preauthorization of 1 granted and 1 denied resource), and a sign-in refused at the service (its SAML answer altered)
/// from a Linux box (platform `other`). Totals: 3 sign-in attempts, 2 successes, 1 failure; 4 authorizations, 3
/// granted, 1 denied; 3 media tokens; 2 preauthorizations, 4 resources granted, 1 denied — all for requestor `REF`
/// and MVPD `DemoCable`. Used by the report tests and the console's reports page tests.
extension LocalService {
    /// Runs the burst; `decisionsVia`, when given, answers some of the decisions (another instance on the same
    /// database). Throws when an answer is not the expected one.
    package func reportBurst(decisionsVia other: LocalService? = nil) async throws {
        let alice = try await reportClient(osName: "iOS", hardware: "MobilePhone")
        guard case .external = try await signIn(alice, user: "alice").outcome else { throw BrowserError("alice was not signed in") }
        let bob = try await reportClient(osName: "Android", hardware: "TV")
        guard case .external = try await signIn(bob, user: "bob").outcome else { throw BrowserError("bob was not signed in") }
        try await refusedSignIn(try await client())

        let via = { (client: RESTClient) in other.map { Self.moved(client, to: $0) } ?? client }
        try await Self.authorize(alice, "news", granted: true)
        try await Self.authorize(via(alice), "sports", granted: true)
        try await Self.preauthorize(via(alice), ["news", "sports", "movies"], granted: 3)
        try await Self.authorize(via(bob), "news", granted: true)
        try await Self.authorize(bob, "movies", granted: false)
        try await Self.preauthorize(bob, ["news", "movies"], granted: 1)
    }

    /// A registered client that says it runs on `osName`.
    private func reportClient(osName: String, hardware: String) async throws -> RESTClient {
        var client = try await client()
        client.deviceInfo = DeviceInfo(primaryHardwareType: hardware, model: "Test", osName: osName, osVersion: "1")
        return client
    }

    /// The same client and device through another instance.
    private static func moved(_ client: RESTClient, to other: LocalService) -> RESTClient {
        var moved = RESTClient(httpClient: other.httpClient, baseURL: other.baseURL, serviceProvider: "REF", deviceID: client.deviceID)
        moved.accessToken = client.accessToken
        moved.deviceInfo = client.deviceInfo
        return moved
    }

    /// One play: authorize one resource at DemoCable.
    private static func authorize(_ client: RESTClient, _ resource: String, granted: Bool) async throws {
        let answer = try await client.decisions("authorize", mvpd: "DemoCable", resources: [resource])
        guard let decision = try? answer.decode(DecisionsResponse.self).decisions.first, decision.authorized == granted,
            (decision.token != nil) == granted
        else { throw BrowserError("authorize \(resource): expected granted=\(granted), got \(answer.text)") }
    }

    /// Preauthorizes at DemoCable and checks how many resources are granted.
    private static func preauthorize(_ client: RESTClient, _ resources: [String], granted: Int) async throws {
        let answer = try await client.decisions("preauthorize", mvpd: "DemoCable", resources: resources)
        guard let decisions = try? answer.decode(DecisionsResponse.self).decisions, decisions.count { $0.authorized } == granted else {
            throw BrowserError("preauthorize \(resources): expected \(granted) granted, got \(answer.text)")
        }
    }

    /// Signs alice in, but alters the MVPD's answer on its way: the service refuses it (one failed sign-in).
    private func refusedSignIn(_ client: RESTClient) async throws {
        let session = try await client.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
        let browser = browser()
        let (page, form) = try await DemoSignIn.loginUntilAssertion(
            browser: browser, authenticationURL: baseURL + (session.url ?? ""), username: "alice", password: "alice-pass")
        guard let encoded = form["SAMLResponse"], let data = Data(base64Encoded: encoded) else { throw BrowserError("no SAML answer") }
        var tampered = form
        let xml = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "H-1001", with: "H-9999")
        tampered.set("SAMLResponse", Data(xml.utf8).base64EncodedString())
        guard case .page(let refused) = try await browser.submit(tampered, from: page), refused.status == 400 else {
            throw BrowserError("the altered SAML answer was not refused")
        }
    }
}
