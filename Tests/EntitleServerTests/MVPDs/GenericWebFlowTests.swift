import AsyncHTTPClient
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import MediaTokenVerifier
import Testing

/// A client that knows nothing of Entitle signs in through `/adobe-services/authenticate/saml` as open-source
/// clients do with Adobe's page (issue 22): GET, post the first form, fill the login form, post the confirmation.
@Suite struct GenericWebFlowTests {
    @Test func aGenericWebFlowClientSignsInThroughAuthenticateSAMLAndGetsAMediaToken() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "generic-web-1")
            let code = try await LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "generic-web-1").registrationCode()
            let start =
                host.baseURL + "/adobe-services/authenticate/saml?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF"), ("no_iframe", "false"),
                    ("domain_name", "adobe.com"), ("redirect_url", "https://example.com/watch"), ("reg_code", code),
                ])
            var client = GenericWebFlowClient(httpClient: host.httpClient)
            let end = try await client.signIn(startURL: start, username: "alice", password: "alice-pass")
            guard case .page(let url, let status, let body) = end else { Issue.record("ended at \(end)"); return }
            #expect(url == host.baseURL + "/authenticated?mvpd=DemoCable")
            #expect(status == 200 && body.contains("You are signed in"))
            // The page posted the AuthnRequest to the MVPD (no redirect from authenticate/saml), the login page came
            // back from that post, the login answered the confirmation form, whose post ended with a redirect.
            let sso = host.baseURL + "/demo-mvpd/DemoCable/saml/sso"
            #expect(client.steps.prefix(4).map(\.method) == ["GET", "POST", "POST", "POST"], "\(client.steps)")
            #expect(client.steps.first?.status == 200)
            #expect(client.steps.count > 2 && client.steps[1] == .init(method: "POST", url: sso, status: 200))
            #expect(client.steps.count > 3 && client.steps[3].status == 302)

            // The sign-in is valid: authnToken, authorization, a media token that verifies.
            let session = try await AdobeServicesFlowTests.post(
                host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", code)], bearer: rest)
            #expect(session.status == 200)
            let authn = try #require(AdobeServicesFlowTests.unescaped(session, "authnToken"))
            #expect(authn.contains("<simpleTokenMsoID>DemoCable</simpleTokenMsoID>"))
            let authorize = try await AdobeServicesFlowTests.post(
                host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", authn), ("mso_id", "DemoCable")],
                bearer: rest)
            #expect(authorize.status == 200)
            let authz = try #require(AdobeServicesFlowTests.unescaped(authorize, "authzToken"))
            let short = try await AdobeServicesFlowTests.post(
                host, "shortAuthorize", [("authz_token", authz), ("requestor_id", "REF"), ("session_guid", "x"), ("hashed_guid", "false")],
                bearer: rest)
            #expect(short.status == 200)
            let pem = try await rest.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))
            #expect(await verifier.verify(short.text, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
        }
    }

    @Test func theGenericClientSignsInThroughTheRESTv1BrowserLegToo() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "generic-v1")
            let tv = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "generic-v1")
            let code = try await tv.registrationCode()
            let start =
                host.baseURL + "/api/v1/authenticate?"
                + FormURLEncoding.encode([
                    ("reg_code", code), ("requestor_id", "REF"), ("domain_name", "adobe.com"), ("mso_id", "DemoCable"), ("noflash", "true"),
                    ("no_iframe", "true"), ("redirect_url", host.baseURL + "/authenticated"),
                ])
            var client = GenericWebFlowClient(httpClient: host.httpClient)
            guard case .page(let url, let status, _) = try await client.signIn(startURL: start, username: "alice", password: "alice-pass") else {
                Issue.record("no page at the end")
                return
            }
            #expect(url.hasPrefix(host.baseURL + "/authenticated") && status == 200, "\(url)")
            let sso = host.baseURL + "/demo-mvpd/DemoCable/saml/sso"
            #expect(client.steps.contains(.init(method: "POST", url: sso, status: 200)), "\(client.steps)")
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").status == 200)
            #expect(try await tv.device(.GET, "/api/v1/authorize", [("resource", "news")]).status == 200)
        }
    }

    @Test func aWrongPasswordStopsTheGenericClientAtTheLogin() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "generic-web-2")
            let code = try await LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "generic-web-2").registrationCode()
            let start =
                host.baseURL + "/adobe-services/authenticate/saml?"
                + FormURLEncoding.encode([("mso_id", "DemoCable"), ("requestor_id", "REF"), ("domain_name", "adobe.com"), ("reg_code", code)])
            var client = GenericWebFlowClient(httpClient: host.httpClient)
            await #expect(throws: GenericWebFlowClient.FlowError.self) {
                try await client.signIn(startURL: start, username: "alice", password: "wrong")
            }
            #expect(client.steps.last?.status == 401)
            let session = try await AdobeServicesFlowTests.post(
                host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", code)], bearer: rest)
            #expect(session.status == 401)
        }
    }

    @Test func theGenericFormReaderReadsQuotesEntitiesAndBareValues() {
        let html = """
            <html><head><script>var s = "<form action='/no'>";</script></head><body>
            <!-- <form action="/commented"> -->
            <FORM Method=POST action='https://idp.example/sso?a=1&amp;b=2'>
              <input type=hidden name=SAMLRequest value="PHNhbWw+&#x2F;&#61;">
              <INPUT TYPE="hidden" NAME='RelayState' VALUE='a "b" &quot;c&quot;'/>
              <input type="submit" value="Continue">
            </FORM>
            <form><input name="user"><input type="password" name="pw"><input type="checkbox" name="remember"></form>
            </body></html>
            """
        let forms = WebFlowHTML.forms(in: html)
        #expect(forms.count == 2)
        #expect(forms[0].method == "post" && forms[0].action == "https://idp.example/sso?a=1&b=2")
        #expect(forms[0].submission.map { $0.0 + "=" + $0.1 } == ["SAMLRequest=PHNhbWw+/=", "RelayState=a \"b\" \"c\""])
        #expect(forms[1].method == "get" && forms[1].action.isEmpty)
        #expect(forms[1].submission.map(\.0) == ["user", "pw"])
        #expect(GenericWebFlowClient.isUserNameInput(forms[1].inputs[0]))
    }
}
