import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// CORS for browser apps through the real service on a real socket (docs/web-and-server-apps.md): a preflight from an
/// origin on the requestor's registered domains is allowed with exactly the headers REST API v2 uses; another origin
/// gets no CORS header at all; DCR answers any enabled requestor's origins; the console, the admin API and v1 never
/// answer CORS.
@Suite struct CORSFlowTests {
    static let allowHeaders =
        "Authorization, AP-Device-Identifier, X-Device-Info, AP-TempPass-Identity, AP-Partner-Framework-Status, AD-Service-Token, "
        + "Adobe-Subject-Token, X-Roku-Reserved-Roku-Connect-Token, AP-Visitor-Identifier, AP-Application-Profile, Content-Type, Accept, "
        + "X-Forwarded-For"

    /// REF registered for `mynet.example` (and its subdomains) besides the demo's own domains.
    static func registerWebDomain(_ host: LocalService) async throws {
        var ref = try #require(try await host.service.repository.catalogStore.requestor(id: "REF"))
        ref.domains = ["mynet.example", "ios.app"]
        try await host.service.repository.catalogStore.upsertRequestor(ref)
    }

    /// A preflight of `method` to `path` from `origin`, as a browser sends it.
    static func preflight(_ client: RESTClient, _ path: String, origin: String, method: String = "GET") async throws -> RESTClient.Answer {
        try await client.send(
            .OPTIONS, path,
            headers: [
                ("Origin", origin), ("Access-Control-Request-Method", method),
                ("Access-Control-Request-Headers", "authorization,ap-device-identifier,x-device-info"),
            ], authorized: false)
    }

    static func corsHeaders(_ answer: RESTClient.Answer) -> [String] {
        answer.headers.map { $0.name }.filter { $0.lowercased().hasPrefix("access-control-") }
    }

    @Test func aRegisteredOriginsPreflightIsAllowedWithExactlyTheHeadersV2Uses() async throws {
        try await LocalService.run { host in
            try await Self.registerWebDomain(host)
            let tv = try await host.client()
            for origin in ["https://mynet.example", "https://www.mynet.example", "https://play.tv.mynet.example:8443"] {
                let answer = try await Self.preflight(tv, "/api/v2/REF/configuration", origin: origin)
                #expect(answer.status == 204, "\(origin): \(answer.status)")
                #expect(answer.headers["Access-Control-Allow-Origin"] == [origin])
                #expect(answer.headers["Access-Control-Allow-Methods"] == ["GET, POST, DELETE"])
                #expect(answer.headers["Access-Control-Allow-Headers"] == [Self.allowHeaders])
                #expect(answer.headers["Access-Control-Max-Age"] == ["600"])
                #expect(answer.headers["Vary"] == ["Origin"])
                #expect(answer.headers["Access-Control-Allow-Credentials"].isEmpty, "bearer tokens, never credentials mode")
            }
            // The call itself, and its failure, carry the origin: the page reads the Enhanced Error body too.
            let origin = ("Origin", "https://www.mynet.example")
            let configuration = try await tv.send(.GET, "/api/v2/REF/configuration", headers: [origin])
            #expect(configuration.status == 200)
            #expect(configuration.headers["Access-Control-Allow-Origin"] == ["https://www.mynet.example"])
            #expect(configuration.headers["Access-Control-Expose-Headers"] == ["Retry-After, Allow"])
            #expect(configuration.headers["Vary"].contains("Origin"))
            let refused = try await tv.send(.GET, "/api/v2/REF/profiles", headers: [origin], authorized: false)
            #expect(refused.status == 401)
            #expect(refused.headers["Access-Control-Allow-Origin"] == ["https://www.mynet.example"])
            #expect(refused.text.contains("invalid_access_token_client_application"), "\(refused.text)")
            // A preflight needs no route of its own: DELETE sessions/{code} is preflighted like the rest.
            let delete = try await Self.preflight(tv, "/api/v2/REF/sessions/ABCDEFG", origin: "https://mynet.example", method: "DELETE")
            #expect(delete.status == 204 && delete.headers["Access-Control-Allow-Origin"] == ["https://mynet.example"])
        }
    }

    @Test func anotherOriginGetsNoCORSHeaderAtAll() async throws {
        try await LocalService.run { host in
            try await Self.registerWebDomain(host)
            let tv = try await host.client()
            let others = [
                "https://evilmynet.example", "https://mynet.example.evil.example", "http://mynet.example", "https://MYNET.example",
                "https://mynet.example:443", "https://mynet.example/", "null", "https://user@mynet.example", "https://127.0.0.1",
                "http://example.com", "https://xn--mynet-3ya.example",
            ]
            for origin in others {
                let answer = try await Self.preflight(tv, "/api/v2/REF/configuration", origin: origin)
                #expect(answer.status == 403, "\(origin): \(answer.status)")
                #expect(Self.corsHeaders(answer).isEmpty, "\(origin): \(Self.corsHeaders(answer))")
                let call = try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("Origin", origin)])
                #expect(call.status == 200, "the call answers as without CORS; the browser keeps it from the page")
                #expect(Self.corsHeaders(call).isEmpty, "\(origin): \(Self.corsHeaders(call))")
            }
            // Another requestor's path, an unknown requestor, and the authenticate leg: no origin of REF's.
            for path in ["/api/v2/OTHER/configuration", "/api/v2/authenticate/REF/ABCDEFG"] {
                let answer = try await Self.preflight(tv, path, origin: "https://mynet.example")
                #expect(answer.status == 403 && Self.corsHeaders(answer).isEmpty, "\(path)")
            }
            // A disabled requestor's origins are no longer answered.
            try await host.service.requestors.setDisabled(id: "REF", true, actor: "test")
            let disabled = try await Self.preflight(tv, "/api/v2/REF/configuration", origin: "https://mynet.example")
            #expect(disabled.status == 403 && Self.corsHeaders(disabled).isEmpty)
            let dcr = try await Self.preflight(tv, "/o/client/register", origin: "https://mynet.example", method: "POST")
            #expect(dcr.status == 403 && Self.corsHeaders(dcr).isEmpty)
        }
    }

    @Test func dcrAnswersTheOriginsOfAnyRequestor() async throws {
        try await LocalService.run { host in
            try await Self.registerWebDomain(host)
            let tv = try await host.client()
            for path in ["/o/client/register", "/o/client/token"] {
                let allowed = try await Self.preflight(tv, path, origin: "https://apps.mynet.example", method: "POST")
                #expect(allowed.status == 204, "\(path)")
                #expect(allowed.headers["Access-Control-Allow-Origin"] == ["https://apps.mynet.example"])
                #expect(allowed.headers["Access-Control-Allow-Headers"] == [Self.allowHeaders])
                let other = try await Self.preflight(tv, path, origin: "https://elsewhere.example", method: "POST")
                #expect(other.status == 403 && Self.corsHeaders(other).isEmpty, "\(path)")
            }
            // The registration itself, from a registered origin: the answer carries the origin.
            let body = try JSONEncoder().encode(["software_statement": host.softwareStatement])
            let registered = try await tv.send(.POST, "/o/client/register", json: body, headers: [("Origin", "https://apps.mynet.example")])
            #expect(registered.status == 201)
            #expect(registered.headers["Access-Control-Allow-Origin"] == ["https://apps.mynet.example"])
            // An OAuth error answer too.
            let bad = try await tv.send(
                .POST, "/o/client/token", form: [("grant_type", "password")], headers: [("Origin", "https://apps.mynet.example")], authorized: false)
            #expect(bad.status == 400 && bad.headers["Access-Control-Allow-Origin"] == ["https://apps.mynet.example"])
            // A change of domains reaches the DCR answer at once.
            var ref = try #require(try await host.service.repository.catalogStore.requestor(id: "REF"))
            ref.domains = ["ios.app"]
            try await host.service.repository.catalogStore.upsertRequestor(ref)
            let removed = try await Self.preflight(tv, "/o/client/register", origin: "https://apps.mynet.example", method: "POST")
            #expect(removed.status == 403 && Self.corsHeaders(removed).isEmpty)
        }
    }

    @Test func theConsoleAdminAPIAndOtherProtocolsNeverAnswerCORS() async throws {
        try await LocalService.run { host in
            try await Self.registerWebDomain(host)
            let tv = try await host.client()
            // The demo world also registers localhost and 127.0.0.1: an origin allowed on v2 gets nothing here.
            for origin in ["https://mynet.example"] {
                for path in [
                    "/console/sign-in", "/admin/api/requestors", "/api/v1/config/REF", "/adobe-services/config/REF", "/activate", "/metrics",
                ] {
                    let preflight = try await Self.preflight(tv, path, origin: origin)
                    #expect(Self.corsHeaders(preflight).isEmpty, "\(path): \(Self.corsHeaders(preflight))")
                    #expect(preflight.status != 204, "\(path)")
                    let call = try await tv.send(.GET, path, headers: [("Origin", origin)])
                    #expect(Self.corsHeaders(call).isEmpty, "\(path): \(Self.corsHeaders(call))")
                }
            }
            let console = try await tv.send(.GET, "/console/sign-in", headers: [("Origin", "https://mynet.example")], authorized: false)
            #expect(console.status == 200, "the console is on the service's port in this setup")
        }
    }

    @Test func theOriginRule() throws {
        let domains = ["mynet.example", "127.0.0.1", "localhost"]
        let allowed = [
            "https://mynet.example", "https://a.b.mynet.example", "https://mynet.example:8443", "http://127.0.0.1:5173", "http://localhost:3000",
            "https://localhost", "https://127.0.0.1",
        ]
        for origin in allowed {
            #expect(WebOrigin(origin)?.isOn(anyOf: domains) == true, "\(origin)")
        }
        let refused = [
            "http://mynet.example", "https://evilmynet.example", "https://mynet.example.", "https://mynet.example/", "https://mynet.example/x",
            "https://mynet.example?x", "HTTPS://mynet.example", "https://mynet.example:443", "https://[::1]", "http://127.0.0.2:80",
            "https://1.127.0.0.1", "null", "", "file://", "https://mynet.example#", "https://user:pw@mynet.example", "https://mynet%2Eexample",
        ]
        for origin in refused {
            #expect(WebOrigin(origin)?.isOn(anyOf: domains) != true, "\(origin)")
        }
        #expect(WebOrigin("http://127.0.0.2:80") == nil, "a default port is never in a browser's origin")
        #expect(WebOrigin("http://127.0.0.2:8080")?.isOn(anyOf: domains) == false, "loopback, but not registered")
        #expect(WebOrigin("http://192.168.1.10:8080") == nil, "http only on loopback")
    }
}
