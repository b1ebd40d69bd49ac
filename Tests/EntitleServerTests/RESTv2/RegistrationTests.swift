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

/// Dynamic Client Registration: statements, clients, tokens, revocation.
@Suite struct RegistrationTests {
    func oauthError(_ answer: RESTClient.Answer) -> String? { try? answer.decode(OAuthErrorBody.self).error }

    @Test func registrationValidatesTheStatementAndRedirectURI() async throws {
        try await RouterService.run { host in
            let anonymous = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "d")
            func register(_ body: String) async throws -> RESTClient.Answer {
                try await anonymous.send(.POST, "/o/client/register", json: Data(body.utf8), authorized: false)
            }
            let statement = host.softwareStatement
            let ok = try await register(#"{"software_statement":"\#(statement)","redirect_uri":"adobepass://ios.app"}"#)
            #expect(ok.status == 201)
            let registration = try ok.decode(ClientRegistration.self)
            #expect(registration.redirectURIs == ["adobepass://ios.app"])
            #expect(registration.grantTypes == ["client_credentials"])
            #expect(registration.clientIDIssuedAt > 0)

            let wrongURI = try await register(#"{"software_statement":"\#(statement)","redirect_uri":"https://evil.example"}"#)
            #expect(wrongURI.status == 400 && oauthError(wrongURI) == "invalid_redirect_uri")
            let garbage = try await register(#"{"software_statement":"abc.def.ghi"}"#)
            #expect(garbage.status == 400 && oauthError(garbage) == "invalid_software_statement")
            let parts = statement.split(separator: ".")
            let forged = try await register(#"{"software_statement":"\#(parts[0]).\#(parts[1]).\#(String(parts[2].reversed()))"}"#)
            #expect(oauthError(forged) == "invalid_software_statement")
            let notJSON = try await register("software_statement=x")
            #expect(notJSON.status == 400 && oauthError(notJSON) == "invalid_request")

            let token = try await anonymous.send(
                .POST, "/o/client/token",
                form: [
                    ("client_id", registration.clientID),
                    ("client_secret", "wrong"), ("grant_type", "client_credentials"),
                ],
                authorized: false)
            #expect(token.status == 400 && oauthError(token) == "invalid_client")
            let grant = try await anonymous.send(
                .POST, "/o/client/token",
                form: [
                    ("client_id", registration.clientID),
                    ("client_secret", registration.clientSecret), ("grant_type", "password"),
                ],
                authorized: false)
            #expect(grant.status == 400 && oauthError(grant) == "unsupported_grant_type")
            let good = try await anonymous.send(
                .POST, "/o/client/token",
                form: [
                    ("client_id", registration.clientID),
                    ("client_secret", registration.clientSecret), ("grant_type", "client_credentials"),
                ],
                authorized: false)
            let access = try good.decode(AccessTokenResponse.self)
            #expect(access.tokenType == "bearer")
            #expect(access.expiresIn == 21_600)
            #expect(access.createdAt == host.service.clock.nowMilliseconds() / 1000 * 1000)
        }
    }

    @Test func revokingAClientOrItsStatementStopsIt() async throws {
        try await RouterService.run { host in
            let tv = try await host.client()
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 200)
            let other = try await host.client()
            let claims = try #require(await host.service.tokens.verify(accessToken: tv.accessToken!))
            #expect(try await host.service.repository.clientStore.revokeClient(id: claims.sub))
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 401)
            #expect(try await other.send(.GET, "/api/v2/REF/configuration").status == 200)

            let statement = try #require(await host.service.tokens.verify(statement: host.softwareStatement))
            #expect(try await host.service.repository.clientStore.revokeSoftwareStatement(id: statement.softwareID))
            #expect(try await other.send(.GET, "/api/v2/REF/configuration").status == 401)
            let anonymous = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "d")
            let again = try await anonymous.send(
                .POST, "/o/client/register",
                json: Data(#"{"software_statement":"\#(host.softwareStatement)"}"#.utf8), authorized: false)
            #expect(again.status == 400)
            #expect(try again.decode(OAuthErrorBody.self).error == "unapproved_software_statement")
        }
    }

    @Test func adminIssuedStatementsWork() async throws {
        try await RouterService.run { host in
            let (_, jwt) = try await host.service.applications.issueSoftwareStatement(
                requestor: "REF", name: "Other app", redirectURIs: ["other://cb"])
            var client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "d2")
            let registration = try await client.registerAndAuthorize(softwareStatement: jwt)
            #expect(registration.redirectURIs == ["other://cb"])
            #expect(try await client.createSession(mvpd: "DemoCable", redirectURL: "other://cb").status == 200)
            #expect(try await client.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").status == 400)
        }
    }
}
