import AsyncHTTPClient
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Hummingbird
import NIOCore
import Testing

/// A web app in real headless Chromium calling Entitle from another origin with `fetch()` (CORS,
/// docs/web-and-server-apps.md): a page served on an origin of the requestor's registered domains registers (DCR),
/// gets an access token, reads REST API v2 and an Enhanced Error body; the same page served on an origin that is not
/// registered is refused by the browser at the first call.
///
/// The page comes from a second loopback listener, reached as `http://localhost:PORT` (REF's registered `localhost`)
/// and as `http://127.0.0.1:PORT` (removed from REF's domains for this test): one server, two origins. Entitle itself
/// is at `http://127.0.0.1:ITS-PORT`, another origin for both.
@Suite(.serialized, .enabled(if: WebDriver.enabled))
struct WebAppCORSBrowserTests {
    /// The web app: one function that runs the calls and returns what it saw as JSON text.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Reference web app</title></head><body>
        <p id="ready">web app ready</p>
        <script>
        async function run(base, statement) {
          const seen = {};
          try {
            const device = 'fingerprint ' + btoa('web-' + Math.random());
            let answer = await fetch(base + '/o/client/register', {
              method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({software_statement: statement})});
            seen.register = answer.status;
            const client = await answer.json();
            answer = await fetch(base + '/o/client/token', {method: 'POST', body: new URLSearchParams({
              grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret})});
            seen.token = answer.status;
            const token = (await answer.json()).access_token;
            const headers = {'Authorization': 'Bearer ' + token, 'AP-Device-Identifier': device, 'Accept': 'application/json'};
            answer = await fetch(base + '/api/v2/REF/configuration', {headers});
            seen.configuration = answer.status;
            seen.mvpds = (await answer.json()).requestor.mvpds.map(m => m.id);
            answer = await fetch(base + '/api/v2/REF/sessions', {method: 'POST', headers: Object.assign(
              {'Content-Type': 'application/x-www-form-urlencoded'}, headers),
              body: new URLSearchParams({mvpd: 'DemoCable', domainName: location.hostname, redirectUrl: 'adobepass://ios.app'})});
            seen.session = answer.status;
            seen.code = (await answer.json()).code;
            answer = await fetch(base + '/api/v2/REF/profiles', {headers});
            seen.profiles = answer.status;
            answer = await fetch(base + '/api/v2/REF/profiles', {headers: {'AP-Device-Identifier': device}});
            seen.unauthorized = answer.status;
            seen.error = (await answer.json()).code;
          } catch (error) {
            seen.failed = error.name;
          }
          return JSON.stringify(seen);
        }
        </script></body></html>
        """

    /// Runs the page server on an ephemeral 127.0.0.1 port while `body` runs.
    static func withPageServer(_ body: (Int) async throws -> Void) async throws {
        let router = Router()
        router.get("/app.html") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        try await withLoopbackServer(router) { base in
            try await body(Int(base.split(separator: ":").last ?? "") ?? 0)
        }
    }

    /// Opens the page at `origin` and runs the app against the service; returns what the page saw.
    static func runApp(_ driver: WebDriver, origin: String, service: LocalService) async throws -> [String: Any] {
        try await driver.open(origin + "/app.html")
        try await driver.waitForText("web app ready")
        let text =
            try await driver.asyncScript(
                "var done = arguments[arguments.length - 1]; run(arguments[0], arguments[1]).then(done);",
                [service.baseURL, service.softwareStatement])
            as? String ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func aPageOnARegisteredOriginCallsDCRAndV2AndAnotherOriginIsRefused() async throws {
        try await LocalService.run { service in
            #expect(service.baseURL.hasPrefix("http://127.0.0.1:"), "Entitle on 127.0.0.1, the pages on localhost and 127.0.0.1 of another port")
            var ref = try #require(try await service.service.repository.catalogStore.requestor(id: "REF"))
            ref.domains = ["ios.app", "localhost"]
            try await service.service.repository.catalogStore.upsertRequestor(ref)
            let driver = try await WebDriver.start(http: service.httpClient)
            do {
                try await Self.withPageServer { port in
                    let registered = try await Self.runApp(driver, origin: "http://localhost:\(port)", service: service)
                    await driver.screenshot("web-app-registered-origin")
                    #expect(registered["failed"] == nil, "\(registered)")
                    #expect(registered["register"] as? Int == 201)
                    #expect(registered["token"] as? Int == 201)
                    #expect(registered["configuration"] as? Int == 200)
                    #expect((registered["mvpds"] as? [String])?.contains("DemoCable") == true, "\(registered)")
                    #expect(registered["session"] as? Int == 200, "\(registered)")
                    #expect((registered["code"] as? String)?.isEmpty == false)
                    #expect(registered["profiles"] as? Int == 200 || registered["profiles"] as? Int == 404, "\(registered)")
                    #expect(registered["unauthorized"] as? Int == 401)
                    #expect(registered["error"] as? String == "invalid_access_token_client_application", "the page reads the error body")

                    let other = try await Self.runApp(driver, origin: "http://127.0.0.1:\(port)", service: service)
                    #expect(other["failed"] as? String == "TypeError", "the browser refuses the answer: \(other)")
                    #expect(other["register"] == nil, "refused at the preflight of the first call")
                }
                await driver.quit()
            } catch {
                await driver.screenshot("failure-\(UUID().uuidString.prefix(8))")
                await driver.quit()
                throw error
            }
        }
    }
}
