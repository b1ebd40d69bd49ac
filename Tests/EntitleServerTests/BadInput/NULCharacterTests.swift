import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// A NUL character (`%00`, `\u0000`) in any id position is refused at the edge with the protocol's own 400 — never a
/// database error — on SQLite and, under `scripts/with-postgres.sh`, on PostgreSQL (whose `text` cannot hold it).
@Suite struct NULCharacterTests {
    static let nul = "\u{0}"

    static func containsNUL(_ text: String) -> Bool { NULRefusalMiddleware.containsNUL(Array(text.utf8)) }

    @Test func everyIdPositionRefusesNUL() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let anonymous = RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            var failures: [String] = []
            func check(_ label: String, _ answer: RESTClient.Answer, _ format: String) {
                guard answer.status == 400 else {
                    failures.append("\(label): HTTP \(answer.status) \(answer.text.prefix(200))")
                    return
                }
                let body = answer.text
                switch format {
                case "oauth": if !body.contains(#""error":"invalid_request""#) { failures.append("\(label): not an OAuth error: \(body)") }
                case "xml": if !body.contains("<code>invalid_request</code>") { failures.append("\(label): not a v1 XML error: \(body)") }
                default: if !body.contains(#""code":"invalid_request""#) { failures.append("\(label): not an Enhanced Error: \(body)") }
                }
            }
            // REST v2 and Dynamic Client Registration.
            check(
                "token client_id",
                try await anonymous.send(
                    .POST, "/o/client/token", form: [("client_id", "a\(Self.nul)b"), ("client_secret", "x"), ("grant_type", "client_credentials")],
                    authorized: false), "oauth")
            check(
                "register software_statement",
                try await anonymous.send(.POST, "/o/client/register", json: Data(#"{"software_statement":"a\u0000b"}"#.utf8), authorized: false),
                "oauth")
            check(
                "sessions mvpd",
                try await tv.send(.POST, "/api/v2/REF/sessions", form: [("mvpd", "Demo\(Self.nul)Cable"), ("redirectUrl", "adobepass://ios.app")]),
                "json")
            check("sessions/{code} mvpd", try await tv.send(.POST, "/api/v2/REF/sessions/ABCDEFG", form: [("mvpd", "Demo\(Self.nul)Cable")]), "json")
            check("profiles/{mvpd}", try await tv.send(.GET, "/api/v2/REF/profiles/Demo%00Cable"), "json")
            check("sp in path", try await tv.send(.GET, "/api/v2/RE%00F/configuration"), "json")
            // REST API v1, query and form.
            for path in ["checkauthn", "tokens/authn", "authorize", "tokens/media", "tokens/usermetadata", "preauthorize"] {
                check(
                    "v1 GET \(path)",
                    try await anonymous.send(.GET, "/api/v1/\(path)?requestor=RE%00F&deviceId=box&resource=news&format=xml", authorized: false), "xml"
                )
                check(
                    "v1 POST \(path)",
                    try await anonymous.send(
                        .POST, "/api/v1/\(path)?format=xml", form: [("requestor", "RE\(Self.nul)F"), ("deviceId", "box"), ("resource", "news")],
                        authorized: false), "xml")
            }
            check(
                "v1 deviceId", try await anonymous.send(.GET, "/api/v1/checkauthn?requestor=REF&deviceId=b%00ox&format=xml", authorized: false), "xml"
            )
            check(
                "v1 JSON format", try await anonymous.send(.GET, "/api/v1/checkauthn?requestor=RE%00F&deviceId=box&format=json", authorized: false),
                "json")
            // adobe-services.
            for path in ["session", "authorize", "sessionDevice", "authorizeDevice"] {
                check(
                    "adobe-services \(path)",
                    try await anonymous.send(
                        .POST, "/adobe-services/\(path)", form: [("requestor_id", "RE\(Self.nul)F"), ("resource_id", "news")], authorized: false),
                    "xml")
            }
            // The operators' console is pages: its refusal is a page too (schemathesis found a JSON one there).
            let console = try await anonymous.send(.GET, "/console/reports?reason=a%00b", authorized: false)
            #expect(console.status == 400)
            #expect(console.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true, "\(console.headers)")
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            // The service is unharmed: the same client still works.
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
        }
    }

    @Test func nulIsFoundRawEncodedAndEscapedButNotInLookalikes() {
        #expect(Self.containsNUL("a%00b"))
        #expect(Self.containsNUL("{\"a\":\"\\u0000\"}"))
        #expect(Self.containsNUL("{\"a\":\"\\U0000\"}"))
        #expect(Self.containsNUL("a\u{0}b"))
        #expect(!Self.containsNUL("a%20b%0A%100"))
        #expect(!Self.containsNUL("\\u0001 %0 %"))
        #expect(!Self.containsNUL("%0"))
    }
}
