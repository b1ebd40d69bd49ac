import EntitleClients
import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation

/// What the two harnesses share — ``LocalService`` (a real socket) and ``RouterService`` (Hummingbird's router test
/// client, no socket): the host, its clock, a transport to it, and the clients and sign-in built on them.
package protocol ServiceHarness: Sendable {
    /// The running host.
    var host: EntitleHost { get }
    /// Its base URL (the URLs of the seeded world start with it).
    var baseURL: String { get }
    /// The service's clock.
    var clock: ManualClock { get }
    /// How the clients reach the host.
    var transport: ServiceTransport { get }
}

extension ServiceHarness {
    /// The service.
    package var service: EntitleService { host.service }
    /// The demo software statement.
    package var softwareStatement: String { host.demoInfo!.softwareStatement }

    /// A REST client registered with the demo software statement, for a device.
    package func client(device: String = "device-" + UUID().uuidString, redirectURI: String? = nil) async throws -> RESTClient {
        var client = RESTClient(transport: transport, baseURL: baseURL, serviceProvider: "REF", deviceID: device)
        _ = try await client.registerAndAuthorize(softwareStatement: softwareStatement, redirectURI: redirectURI)
        return client
    }

    /// A new browser.
    package func browser() -> BrowserClient { BrowserClient(transport: transport) }

    /// Creates a session for `mvpd` and signs `user` in through the browser leg; returns the code and where the browser ended.
    package func signIn(
        _ client: RESTClient, mvpd: String = "DemoCable", user: String, password: String? = nil,
        redirectURL: String? = "adobepass://ios.app"
    ) async throws -> (code: String, outcome: BrowserClient.Outcome) {
        let answer = try await client.createSession(mvpd: mvpd, redirectURL: redirectURL)
        let session = try answer.decode(SessionResponse.self)
        guard let url = session.url, let code = session.code else { throw BrowserError("Session has no url: \(answer.text)") }
        let outcome = try await DemoSignIn.signIn(
            browser: browser(), authenticationURL: baseURL + url, username: user,
            password: password ?? user + "-pass")
        return (code, outcome)
    }
}
