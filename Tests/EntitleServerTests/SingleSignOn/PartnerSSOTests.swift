import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import SAML
import Testing

/// Apple partner single sign-on over the wire: the service's AuthnRequest goes to the DemoMVPD through the (simulated)
/// platform account, and the signed answer comes back to `profiles/sso/Apple`.
@Suite struct PartnerSSOTests {
    func frameworkStatus(_ access: String = "granted", provider: String? = "DemoSSO", expires: Int64? = nil) -> String {
        PartnerFrameworkStatus(
            frameworkPermissionInfo: .init(accessStatus: access),
            frameworkProviderInfo: .init(id: provider, expirationDate: expires)
        ).headerValue()
    }

    func platformAnswer(_ host: LocalService, token: String, user: String = "dave", password: String = "dave-pass") async throws -> RESTClient.Answer
    {
        let platform = RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "platform")
        return try await platform.send(
            .POST, "/demo-mvpd/DemoSSO/platform/sso",
            form: [("verificationToken", token), ("username", user), ("password", password)], authorized: false)
    }

    @Test func daveIsSignedInThroughThePlatformAccount() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let header = [("AP-Partner-Framework-Status", frameworkStatus(expires: host.clock.nowMilliseconds() + 3_600_000))]
            let start = try await tv.send(.POST, "/api/v2/REF/sessions/sso/Apple", form: [("domainName", "ios.app")], headers: header)
            #expect(start.status == 200, "\(start.text)")
            let session = try start.decode(SessionResponse.self)
            #expect(session.actionName == "partner_profile")
            #expect(session.url == "/api/v2/REF/profiles/sso/Apple")
            let request = try #require(session.authenticationRequest)
            #expect(request.type == "saml")
            #expect(request.attributesNames.contains("userID"))

            let answer = try await platformAnswer(host, token: request.request)
            #expect(answer.status == 200, "\(answer.text)")
            let samlResponse = try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: String])?["samlAttributeQueryResponse"])
            let created = try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", samlResponse)], headers: header)
            #expect(created.status == 201, "\(created.text)")
            let profile = try #require(try created.decode(ProfilesResponse.self).profiles["DemoSSO"])
            #expect(profile.type == "appleSSO")
            #expect(profile.issuer == "Apple")
            #expect(profile.attributes["tokenSource"]?.value == .string("Apple"))
            #expect(profile.attributes["householdID"]?.value == .string("H-3001"))

            // The same answer cannot be used twice; decisions work; logout tells the app to sign out in Settings.
            let replay = try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", samlResponse)], headers: header)
            #expect(replay.status == 400)
            let decision = try await tv.decisions("authorize", mvpd: "DemoSSO", resources: ["movies"]).decode(DecisionsResponse.self).decisions[0]
            #expect(decision.error?.code == "authorization_denied_by_parental_controls")
            #expect(try await tv.decisions("authorize", mvpd: "DemoSSO", resources: ["news"]).decode(DecisionsResponse.self).decisions[0].authorized)
            let logout = try await tv.send(.GET, "/api/v2/REF/logout/DemoSSO").decode(LogoutsResponse.self)
            #expect(logout.logouts["DemoSSO"]?.actionName == "partner_logout")
            #expect(logout.logouts["DemoSSO"]?.actionType == "partner_interactive")
        }
    }

    @Test func frameworkStatusHeaderIsValidated() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let cases: [(String?, String)] = [
                (nil, "invalid_header_pfs_permission_access_not_present"),
                ("%%%", "invalid_header_pfs_permission_access_not_present"),
                (Data("{}".utf8).base64EncodedString(), "invalid_header_pfs_permission_access_not_present"),
                (frameworkStatus("notDetermined"), "invalid_header_pfs_permission_access_not_determined"),
                (frameworkStatus("denied"), "invalid_header_pfs_permission_access_not_granted"),
                (frameworkStatus("restricted"), "invalid_header_pfs_permission_access_not_granted"),
                (frameworkStatus(provider: nil), "invalid_header_pfs_provider_id_not_determined"),
                (frameworkStatus(provider: "NotAnMVPD"), "invalid_header_pfs_provider_id_mismatch"),
                // Integrated with REF, not configured for platform SSO.
                (frameworkStatus(provider: "DemoCable"), "invalid_configuration_mvpd_platform"),
                (frameworkStatus(expires: host.clock.nowMilliseconds() - 1), "invalid_header_pfs_provider_info_expired"),
            ]
            for (header, code) in cases {
                let answer = try await tv.send(
                    .POST, "/api/v2/REF/sessions/sso/Apple", form: [],
                    headers: header.map { [("AP-Partner-Framework-Status", $0)] } ?? [])
                #expect(answer.status == 400)
                #expect((try? answer.decode(EnhancedError.self))?.code.rawValue == code, "\(answer.text)")
            }
            let wrongPartner = try await tv.send(
                .POST, "/api/v2/REF/sessions/sso/Google", form: [],
                headers: [("AP-Partner-Framework-Status", frameworkStatus())])
            #expect((try? wrongPartner.decode(EnhancedError.self))?.code == "invalid_parameter_partner")
        }
    }

    @Test func foreignOrMisdirectedResponsesAreRefused() async throws {
        try await LocalService.run { host in
            let tv = try await host.client()
            let header = [("AP-Partner-Framework-Status", frameworkStatus())]
            let session = try await tv.send(.POST, "/api/v2/REF/sessions/sso/Apple", form: [], headers: header).decode(SessionResponse.self)
            let request = try #require(session.authenticationRequest)
            let requestID = try AuthnRequest.parse(xml: String(decoding: Data(base64Encoded: request.request)!, as: UTF8.self)).id

            // Signed by a stranger.
            let stranger = try SigningIdentity.generate(commonName: "stranger", now: host.clock.now())
            let forged = try SAMLResponseBuilder(issuer: host.baseURL + "/demo-mvpd/DemoSSO", signer: stranger).success(
                inResponseTo: requestID, destination: host.service.configuration.assertionConsumerServiceURL,
                audience: host.service.configuration.spEntityID, nameID: "x", sessionIndex: "s", attributes: ["userID": ["x"]],
                now: host.clock.now(), sessionNotOnOrAfter: nil)
            let refused = try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", forged)], headers: header)
            #expect(refused.status == 400)
            #expect(try refused.decode(EnhancedError.self).code == "invalid_parameter_saml_response")
            #expect(
                try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", "bm90IHhtbA==")], headers: header).status == 400)
            #expect(try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [], headers: header).status == 400)

            // A genuine answer relayed by another device is refused; the right device can still use it.
            let genuine = try await platformAnswer(host, token: request.request)
            let samlResponse = try #require(
                (try JSONSerialization.jsonObject(with: genuine.body) as? [String: String])?["samlAttributeQueryResponse"])
            // The genuine answer with its signatures stripped is refused.
            let xml = String(decoding: try #require(Data(base64Encoded: samlResponse)), as: UTF8.self)
            let unsigned = xml.replacingOccurrences(of: #"<(\w+:)?Signature[\s\S]*?</(\w+:)?Signature>"#, with: "", options: .regularExpression)
            #expect(unsigned != xml && !unsigned.contains("SignatureValue"))
            let stripped = try await tv.send(
                .POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", Data(unsigned.utf8).base64EncodedString())],
                headers: header)
            #expect(stripped.status == 400)
            #expect(try stripped.decode(EnhancedError.self).code == "invalid_parameter_saml_response")

            let other = try await host.client()
            #expect(
                try await other.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", samlResponse)], headers: header).status == 400)
            #expect(try await tv.send(.POST, "/api/v2/REF/profiles/sso/Apple", form: [("SAMLResponse", samlResponse)], headers: header).status == 201)

            // The platform account must really be signed in.
            #expect(try await platformAnswer(host, token: request.request, password: "wrong").status == 401)
        }
    }
}
