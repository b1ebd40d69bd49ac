import DemoMVPD
import Foundation
import Hummingbird
import HummingbirdTesting
import SAML
import Testing

@Suite("DemoMVPD over a real loopback socket")
struct LiveServerTests {
    @Test("login round trip and authorization over HTTP (HummingbirdTesting .live, loopback, ephemeral port)")
    func liveRoundTrip() async throws {
        try await Fixture.application().test(.live) { client in
            #expect(client.port != nil)
            var browser = TestBrowser(client)
            let (authn, page) = try await LoginFlowTests.openLogin(&browser)
            #expect(page.status == .ok)
            let posted = try await LoginFlowTests.submit(&browser, page: page, username: "alice", password: "alice-pass")
            let samlResponse = try #require(inputValue("SAMLResponse", in: posted.text))
            let assertion = try Fixture.validator(providerID: "DemoCable")
                .validate(base64Response: samlResponse, expectedInResponseTo: authn.id, now: Fixture.now)

            let body = AuthorizationAPITests.body(userID: assertion.nameID, resource: "movies")
            let (response, json) = try await AuthorizationAPITests.post(client, mvpd: "DemoCable", body: body)
            #expect(response.status == .ok)
            #expect(json["authorized"] as? Bool == true)
        }
    }
}
