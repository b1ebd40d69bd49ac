import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Every bad input gets a clear Enhanced Error Code body with the documented status — never a 500 — and loses nothing.
@Suite struct BadInputTests {
    func expectError(_ answer: RESTClient.Answer, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == status, "HTTP \(answer.status): \(answer.text)", sourceLocation: sourceLocation)
        let body = try? answer.decode(EnhancedError.self)
        #expect(body?.code.rawValue == code, "body: \(answer.text)", sourceLocation: sourceLocation)
        #expect(body?.status == status, sourceLocation: sourceLocation)
        #expect(body?.trace.isEmpty == false, sourceLocation: sourceLocation)
        #expect(body?.helpUrl.isEmpty == false, sourceLocation: sourceLocation)
    }

    @Test func accessTokensAreRequiredAndChecked() async throws {
        try await RouterService.run { host in
            var tv = try await host.client()
            let good = tv.accessToken!
            tv.accessToken = nil
            expectError(try await tv.send(.GET, "/api/v2/REF/configuration"), status: 401, code: "invalid_access_token_client_application")
            tv.accessToken = good + "x"
            expectError(try await tv.send(.GET, "/api/v2/REF/configuration"), status: 401, code: "invalid_access_token_client_application")
            tv.accessToken = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."
            expectError(try await tv.send(.GET, "/api/v2/REF/configuration"), status: 401, code: "invalid_access_token_client_application")
            // The scheme is case-insensitive (RFC 9110 §11.1); another scheme, or the scheme alone, is no bearer token.
            tv.accessToken = nil
            for scheme in ["bearer", "BEARER", "bEaReR"] {
                #expect(try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("Authorization", "\(scheme) \(good)")]).status == 200)
            }
            for header in ["Basic \(good)", "Bearer", "Bearer ", "Bearer\t\(good)", "Bearer: \(good)"] {
                expectError(
                    try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("Authorization", header)]), status: 401,
                    code: "invalid_access_token_client_application")
            }
            tv.accessToken = good
            expectError(try await tv.send(.GET, "/api/v2/OTHER/configuration"), status: 400, code: "invalid_parameter_service_provider")
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)

            // An expired token stops working.
            host.clock.advance(by: 6 * 3600 + 1)
            expectError(try await tv.send(.GET, "/api/v2/REF/configuration"), status: 401, code: "invalid_access_token_client_application")
        }
    }

    @Test func deviceHeadersAreValidated() async throws {
        try await RouterService.run { host in
            let tv = try await host.client()
            expectError(
                try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("AP-Device-Identifier", "")]),
                status: 400, code: "invalid_header_device_identifier")
            expectError(
                try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("AP-Device-Identifier", "fingerprint !!!")]),
                status: 400, code: "invalid_header_device_identifier")
            expectError(
                try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("AP-Device-Identifier", "token abc")]),
                status: 400, code: "invalid_header_device_identifier")
            expectError(
                try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("X-Device-Info", "not-base64-json")]),
                status: 400, code: "invalid_header_device_info")
            expectError(
                try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("X-Device-Info", Data("[1,2]".utf8).base64EncodedString())]),
                status: 400, code: "invalid_header_device_info")
            let legacy = Data(#"{"type":"TV","model":"X","displayWidth":"1920"}"#.utf8).base64EncodedString()
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration", headers: [("X-Device-Info", legacy)]).status == 200)
        }
    }

    @Test func sessionParametersAreValidated() async throws {
        try await RouterService.run { host in
            let tv = try await host.client(redirectURI: "adobepass://ios.app")
            expectError(try await tv.createSession(mvpd: "NoSuchMVPD", redirectURL: nil), status: 400, code: "invalid_parameter_mvpd")
            expectError(
                try await tv.createSession(mvpd: "DemoCable", redirectURL: "https://evil.example/steal"),
                status: 400, code: "invalid_parameter_redirect_url")
            // Registered for adobepass://ios.app only: the statement's other URI is not allowed for this client.
            expectError(
                try await tv.createSession(mvpd: "DemoCable", redirectURL: "entitle-demo://callback"),
                status: 400, code: "invalid_parameter_redirect_url")
            expectError(
                try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app.evil"),
                status: 400, code: "invalid_parameter_redirect_url")
            #expect(try await tv.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app/").status == 200)
            expectError(try await tv.send(.GET, "/api/v2/REF/sessions/ZZZZZZZZ"), status: 400, code: "invalid_parameter_code")
            expectError(try await tv.send(.GET, "/api/v2/REF/sessions/%3Cscript%3E"), status: 400, code: "invalid_parameter_code")
            expectError(try await tv.send(.GET, "/api/v2/REF/profiles/code/ZZZZZZZZ"), status: 400, code: "invalid_parameter_code")
            expectError(try await tv.send(.GET, "/api/v2/REF/profiles/NoSuchMVPD"), status: 400, code: "invalid_parameter_mvpd")

            let session = try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self)
            let code = try #require(session.code)
            let resumed = try await tv.send(
                .POST, "/api/v2/REF/sessions/\(code)", form: [("mvpd", "DemoCable"), ("redirectUrl", "adobepass://ios.app")])
            #expect(try resumed.decode(SessionResponse.self).actionName == "authenticate")
            let fetched = try await tv.send(.GET, "/api/v2/REF/sessions/\(code.lowercased())").decode(SessionResponse.self)
            #expect(fetched.existingParameters?["mvpd"] == "DemoCable")
            host.clock.advance(by: 31 * 60)
            expectError(try await tv.send(.GET, "/api/v2/REF/sessions/\(code)"), status: 400, code: "invalid_parameter_code")
        }
    }

    @Test func decisionBodiesAreValidated() async throws {
        // A real socket: the service asks the DemoMVPD's authorization API over HTTP.
        try await LocalService.run { host in
            let tv = try await host.client()
            expectError(
                try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]), status: 403, code: "authenticated_profile_missing")
            _ = try await host.signIn(tv, user: "alice")
            let path = "/api/v2/REF/decisions/authorize/DemoCable"
            expectError(try await tv.send(.POST, path, json: Data("{not json".utf8)), status: 400, code: "invalid_parameter_resources")
            expectError(try await tv.send(.POST, path, json: Data(#"{"resources": "news"}"#.utf8)), status: 400, code: "invalid_parameter_resources")
            expectError(try await tv.send(.POST, path, json: Data(#"{"resources": []}"#.utf8)), status: 400, code: "invalid_parameter_resources")
            expectError(
                try await tv.decisions("authorize", mvpd: "DemoCable", resources: Array(repeating: "news", count: 11)),
                status: 403, code: "too_many_resources")
            expectError(try await tv.decisions("authorize", mvpd: "Nope", resources: ["news"]), status: 400, code: "invalid_parameter_mvpd")
            let huge = String(repeating: "a", count: 300 * 1024)
            expectError(try await tv.send(.POST, path, json: Data(#"{"resources": ["\#(huge)"]}"#.utf8)), status: 413, code: "payload_too_large")
            let items = try await tv.decisions(
                "authorize", mvpd: "DemoCable",
                resources: ["<rss><channel><title>news", "<!DOCTYPE x [<!ENTITY a 'b'>]><rss/>", "news"]
            )
            .decode(DecisionsResponse.self).decisions
            #expect(items.map { $0.error?.code } == ["invalid_parameter_resources", "invalid_parameter_resources", nil])
            #expect(items[2].authorized)
        }
    }

    @Test func unknownRoutesAndMethodsAnswerWithErrorBodies() async throws {
        try await RouterService.run { host in
            let tv = try await host.client()
            expectError(try await tv.send(.GET, "/api/v2/REF/nothing/here"), status: 404, code: "not_found")
            expectError(try await tv.send(.DELETE, "/api/v2/REF/configuration"), status: 405, code: "invalid_http_method")
            let browser = host.browser()
            guard case .page(let page) = try await browser.get(host.baseURL + "/api/v2/authenticate/REF/AAAAAAAA") else { return }
            #expect(page.status == 400)
            #expect(page.body.contains("not valid"))
        }
    }
}
