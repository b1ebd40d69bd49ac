import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// Two instances on one PostgreSQL database with a shared public URL run one demo world: the DemoMVPD's keys (and so
/// its CSRF and session cookies) come from the database, so a login started through one instance finishes through
/// the other. Runs when `ENTITLE_TEST_DATABASE_URL` names a PostgreSQL server (scripts/with-postgres.sh).
@Suite struct DemoWorldInstancesTests {
    /// Runs an instance with the demo world on `port`, its own data directory, the shared database and public URL.
    static func withInstance(
        port: Int, publicURL: String, databaseURL: String,
        _ body: @Sendable (EntitleHost) async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "entitle-instance-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = HostConfiguration()
        configuration.port = port
        configuration.publicBaseURL = publicURL
        configuration.dataDirectory = directory
        configuration.databaseURL = databaseURL
        configuration.rateLimitPerSecond = 0
        var logger = Logger(label: "entitle.test")
        logger.logLevel = .warning
        try await EntitleHost.serveOnce(configuration: configuration, logger: logger, clock: SystemClock(), body)
    }

    /// `action` of a form on `page`, made absolute and sent to `base` instead of the public URL (a load balancer's choice).
    static func through(_ base: String, _ action: String, page: BrowserClient.Page) throws -> String {
        let absolute = try #require(URL(string: action.isEmpty ? page.url : action, relativeTo: URL(string: page.url))?.absoluteURL)
        var components = try #require(URLComponents(url: absolute, resolvingAgainstBaseURL: false))
        let target = try #require(URLComponents(string: base))
        components.port = target.port
        return try #require(components.string)
    }

    @Test func aLoginStartedThroughOneInstanceFinishesThroughTheOther() async throws {
        guard let database = try await ScratchDatabase.create() else { return }
        do {
            let portA = try freePort(), portB = try freePort()
            let publicURL = "http://127.0.0.1:\(portA)", addressB = "http://127.0.0.1:\(portB)"
            try await Self.withInstance(port: portA, publicURL: publicURL, databaseURL: database.url) { a in
                try await Self.withInstance(port: portB, publicURL: publicURL, databaseURL: database.url) { b in
                    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
                    do {
                        try await Self.crossInstanceLogin(httpClient: httpClient, a: a, b: b, publicURL: publicURL, addressB: addressB)
                    } catch {
                        try? await httpClient.shutdown()
                        throw error
                    }
                    try await httpClient.shutdown()
                }
            }
        } catch {
            try? await database.drop()
            throw error
        }
        try await database.drop()
    }

    static func crossInstanceLogin(httpClient: HTTPClient, a: EntitleHost, b: EntitleHost, publicURL: String, addressB: String) async throws {
        // Both instances agree on the DemoMVPD's identity.
        #expect(a.demo?.configuration.identity.certificatePEM == b.demo?.configuration.identity.certificatePEM)
        #expect(a.demo?.configuration.authorizationAPIKey == b.demo?.configuration.authorizationAPIKey)

        // The app talks to B; the browser leg starts at B and is sent on to the public URL (A).
        var viaB = RESTClient(httpClient: httpClient, baseURL: addressB, serviceProvider: "REF", deviceID: "device-" + UUID().uuidString)
        _ = try await viaB.registerAndAuthorize(softwareStatement: try #require(a.demoInfo?.softwareStatement))
        let session = try await viaB.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
        let browser = BrowserClient(httpClient: httpClient)
        // B's page posts the AuthnRequest to the public URL's DemoMVPD (HTTP-POST binding), which shows the login form.
        guard case .page(let login) = try await browser.followingAutoPost(try await browser.get(addressB + (try #require(session.url)))),
            var form = login.forms.first(where: { $0["password"] != nil })
        else { throw BrowserError("no login form") }
        #expect(login.url.hasPrefix(publicURL))
        // The login form, served by A, is posted to B.
        form.set("username", "alice")
        form.set("password", "alice-pass")
        form.action = try through(addressB, form.action, page: login)
        guard case .page(let post) = try await browser.submit(form, from: login) else { throw BrowserError("login did not answer a page") }
        #expect(post.status == 200, "login through the other instance: HTTP \(post.status) \(post.body.prefix(300))")
        guard let samlForm = post.forms.first(where: { $0["SAMLResponse"] != nil }) else { throw BrowserError("no SAML form") }
        // B's DemoMVPD signed the answer; A's consumer checks it.
        guard case .external(let redirect) = try await browser.submit(samlForm, from: post) else {
            throw BrowserError("the assertion was refused")
        }
        #expect(redirect.hasPrefix("adobepass://ios.app"))

        // Both instances see the profile; B decides with A's seeded MVPD.
        var viaA = RESTClient(httpClient: httpClient, baseURL: publicURL, serviceProvider: "REF", deviceID: viaB.deviceID)
        viaA.accessToken = viaB.accessToken
        #expect(try await viaA.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles["DemoCable"] != nil)
        let decisions = try await viaB.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions
        #expect(decisions.first?.authorized == true)
    }
}
