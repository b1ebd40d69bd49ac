import _CryptoExtras
import EntitleClients
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

/// REST API v1 ("clientless", protocol notes §3) end to end over real sockets: registration code, the second-screen
/// login through `/api/v1/authenticate` and the DemoMVPD, AuthN/AuthZ tokens, short media tokens checked with
/// MediaTokenVerifier, preauthorization, user metadata, logout; with a DCR bearer token and with the HMAC header.
@Suite struct LegacyV1FlowTests {
    @Test func aliceSignsInOnASecondScreenAndWatchesWithABearerToken() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "stb-alice")
            let tv = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "stb-alice")

            let created = try await tv.call(
                .POST, "/reggie/v1/REF/regcode", [("deviceId", "stb-alice"), ("registrationURL", "http://127.0.0.1/activate")])
            #expect(created.status == 201)
            let record = try #require(created.json)
            let code = try #require(record["code"] as? String)
            #expect(record["requestor"] as? String == "REF")
            let generated = try #require((record["generated"] as? NSNumber)?.int64Value),
                expires = try #require((record["expires"] as? NSNumber)?.int64Value)
            #expect(expires - generated == 30 * 60_000)
            let info = try #require(record["info"] as? [String: Any])
            #expect(info["deviceId"] as? String == Data("stb-alice".utf8).base64EncodedString())
            #expect(info["authorizationType"] as? String == "OAUTH2")

            let read = try await tv.call(.GET, "/reggie/v1/REF/regcode/\(code)", format: "xml")
            #expect(read.status == 200)
            #expect(read.text.contains("<ns2:regcode xmlns:ns2=\"model.mvc.reggie.pass.adobe.com\">"))
            #expect(read.xml("code") == code)

            let config = try await tv.call(.GET, "/api/v1/config/REF", format: "xml")
            #expect(config.status == 200)
            #expect(config.text.contains("<id>DemoCable</id>") && config.text.contains("<tempPass>true</tempPass>"))

            let pending = try await tv.device(.GET, "/api/v1/tokens/authn")
            #expect(pending.status == 404)
            #expect(pending.json?["status"] as? Int == 404)
            #expect(try await tv.call(.GET, "/api/v1/checkauthn/\(code)", [("requestor", "REF")]).status == 403)

            let outcome = try await tv.login(code: code, user: "alice")
            guard case .page(let landed) = outcome else { Issue.record("browser did not land: \(outcome)"); return }
            #expect(landed.url == host.baseURL + "/authenticated?mvpd=DemoCable")
            #expect(landed.status == 200)

            #expect(try await tv.call(.GET, "/api/v1/checkauthn/\(code)", [("requestor", "REF")]).status == 200)
            #expect(try await tv.device(.GET, "/api/v1/checkauthn").status == 200)
            let authn = try await tv.device(.GET, "/api/v1/tokens/authn")
            #expect(authn.status == 200)
            #expect(authn.json?["mvpd"] as? String == "DemoCable")
            #expect(authn.json?["requestor"] as? String == "REF")
            #expect(authn.json?["expires"] is String)
            let authnXML = try await tv.device(.GET, "/api/v1/tokens/authn", format: nil)
            #expect(authnXML.headers.first(name: "Content-Type") == "application/xml")
            #expect(authnXML.xml("mvpd") == "DemoCable")

            // One MVPD decision, then any number of media tokens from the stored AuthZ token.
            let decisions = ["entitle_decisions_total", "mvpd=\"DemoCable\"", "kind=\"authorize\"", "outcome=\"authorized\""]
            let before = try await host.counter(decisions[0], labels: Array(decisions.dropFirst()))
            #expect(try await tv.device(.GET, "/api/v1/tokens/authz", [("resource", "news")]).status == 404)
            let authorized = try await tv.device(.GET, "/api/v1/authorize", [("resource", "news")])
            #expect(authorized.status == 200)
            #expect(authorized.json?["resource"] as? String == "news")
            #expect(authorized.json?["mvpd"] as? String == "DemoCable")
            let authz = try await tv.device(.GET, "/api/v1/tokens/authz", [("resource", "news")])
            #expect(authz.status == 200)
            #expect(authz.json?["expires"] as? String == authorized.json?["expires"] as? String)

            let pem = try await rest.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))
            let media = try await tv.device(.GET, "/api/v1/tokens/media", [("resource", "news")])
            #expect(media.status == 200)
            let token = try #require(media.json?["serializedToken"] as? String)
            #expect(media.json?["mvpdId"] as? String == "DemoCable")
            #expect(await verifier.verify(token, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            #expect(await verifier.verify(token, requestor: "REF", resource: "sports", now: host.clock.now()).status == .invalidResource)
            let alias = try await tv.device(.GET, "/api/v1/mediatoken", [("resource", "news")], format: "xml")
            #expect(alias.status == 200)
            let aliasToken = try #require(alias.xml("serializedToken"))
            #expect(await verifier.verify(aliasToken, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            let after = try await host.counter(decisions[0], labels: Array(decisions.dropFirst()))
            #expect(after - before == 1)

            let pre = try await tv.device(.GET, "/api/v1/preauthorize", [("resource", "news,sports,movies")])
            #expect(pre.status == 200)
            #expect(pre.headers.first(name: "Adobe-Response-Confidence") == "full")
            let items = try #require(pre.json?["resources"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == ["news", "sports", "movies"])
            #expect(items.allSatisfy { $0["authorized"] as? Bool == true })
            let preByCode = try await tv.call(.GET, "/api/v1/preauthorize/\(code)", [("requestor", "REF"), ("resource", "news")], format: "xml")
            #expect(preByCode.status == 200)
            #expect(preByCode.text.contains("<resources><resource><id>news</id><authorized>true</authorized></resource></resources>"))

            let metadata = try await tv.device(.GET, "/api/v1/tokens/usermetadata")
            #expect(metadata.status == 200)
            let data = try #require(metadata.json?["data"] as? [String: Any])
            #expect(data["householdID"] as? String == "H-1001")
            #expect(metadata.json?["encrypted"] as? [String] == ["zip"])
            let programmerKey = try String(contentsOfFile: host.dataDirectory + "/demo/programmer-key.pem", encoding: .utf8)
            let zipText = try #require(data["zip"] as? String)
            let cipher = try #require(Data(base64Encoded: zipText))
            let zip = try _RSA.Encryption.PrivateKey(pemRepresentation: programmerKey).decrypt(cipher, padding: .PKCS1_OAEP_SHA256)
            #expect(String(decoding: zip, as: UTF8.self) == "10001")

            #expect(try await tv.device(.DELETE, "/api/v1/logout").status == 204)
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").status == 404)
            #expect(try await tv.device(.GET, "/api/v1/checkauthn").status == 403)
            let denied = try await tv.device(.GET, "/api/v1/authorize", [("resource", "news")])
            #expect(denied.status == 403)
            #expect(denied.code == "authentication_session_missing")
            #expect(try await tv.device(.GET, "/api/v1/tokens/authz", [("resource", "news")]).status == 412)

            #expect(try await tv.call(.DELETE, "/reggie/v1/REF/regcode/\(code)").status == 204)
            #expect(try await tv.call(.GET, "/reggie/v1/REF/regcode/\(code)").status == 404)
        }
    }

    @Test func hmacSignedClientSignsInAuthorizesAndLogsOut() async throws {
        try await LocalService.run { host in
            let pair = try await host.service.keyOperations.issueLegacyKeyPair(requestor: "REF")
            var tv = LegacyV1Client(host: host, identity: .hmac(publicKey: pair.publicKey, privateKey: pair.privateKey), deviceID: "kodi-1")
            let code = try await tv.registrationCode()
            guard case .page(let landed) = try await tv.login(code: code, mvpd: "DemoFiber", user: "carol") else {
                Issue.record("no landing page"); return
            }
            #expect(landed.status == 200)
            tv.shortRequestURI = false
            let authn = try await tv.device(.GET, "/api/v1/tokens/authn")
            #expect(authn.status == 200)
            #expect(authn.json?["mvpd"] as? String == "DemoFiber")

            let denied = try await tv.device(.GET, "/api/v1/authorize", [("resource", "sports")], format: "xml")
            #expect(denied.status == 403)
            #expect(denied.xml("code") == "authorization_denied_by_mvpd")
            #expect(denied.xml("details") == "Your Demo Fiber package does not include sports.")
            #expect(denied.text.hasPrefix("<?xml"))

            let media = try await tv.device(.GET, "/api/v1/tokens/media", [("resource", "news")])
            #expect(media.status == 200)
            let pem = try await RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "x")
                .send(.GET, "/keys/media-token", authorized: false).text
            let token = try #require(media.json?["serializedToken"] as? String)
            let result = await MediaTokenVerifier(keys: try VerificationKeySet(pem: pem)).verify(
                token, requestor: "REF", resource: "news",
                now: host.clock.now())
            #expect(result.status == .valid)
            #expect(result.mvpdID == "DemoFiber")

            // The DemoMVPD session lasts 8 hours: then the AuthN token is gone (410) and so is the AuthZ token's basis (412).
            host.clock.advance(by: 9 * 3600)
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").status == 410)
            #expect(try await tv.device(.GET, "/api/v1/tokens/authz", [("resource", "news")]).status == 412)
            // Signed in again: the old AuthZ token has expired (410) and is not renewed by the new sign-in.
            let again = try await tv.registrationCode()
            _ = try await tv.login(code: again, mvpd: "DemoFiber", user: "carol")
            let gone = try await tv.device(.GET, "/api/v1/tokens/authz", [("resource", "news")])
            #expect(gone.status == 410)
            #expect(gone.code == "authorization_expired")
            #expect(try await tv.device(.DELETE, "/api/v1/logout").status == 204)
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").status == 404)
        }
    }

    @Test func oneStateAcrossRESTv2AndRESTv1() async throws {
        try await LocalService.run { host in
            // Signed in over REST v2 → authorized over v1 with the same app credentials and device id.
            let rest = try await host.client(device: "living-room")
            _ = try await host.signIn(rest, user: "alice")
            let v1 = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "living-room")
            let authn = try await v1.device(.GET, "/api/v1/tokens/authn")
            #expect(authn.status == 200)
            #expect(authn.json?["mvpd"] as? String == "DemoCable")
            #expect(try await v1.device(.GET, "/api/v1/authorize", [("resource", "movies")]).status == 200)
            #expect(try await v1.device(.GET, "/api/v1/tokens/media", [("resource", "movies")]).json?["serializedToken"] is String)
            // Another device id is another device.
            var other = v1
            other.deviceID = "kitchen"
            #expect(try await other.device(.GET, "/api/v1/tokens/authn").status == 404)

            // Logout over v1 ends the v2 profile too.
            #expect(try await v1.device(.DELETE, "/api/v1/logout").status == 204)
            #expect(try await rest.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles.isEmpty)

            // Signed in over v1 → a v2 profile for the same app and device.
            let code = try await v1.registrationCode()
            _ = try await v1.login(code: code, user: "bob")
            let profiles = try await rest.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self)
            #expect(profiles.profiles["DemoCable"]?.attributes["maxRating"]?.value == .string("TV-PG"))
            let decisions = try await rest.decisions("authorize", mvpd: "DemoCable", resources: ["sports"]).decode(DecisionsResponse.self)
            #expect(decisions.decisions.first?.authorized == true)
        }
    }

    @Test func freePreviewWithTempPassAndPromotionalTempPass() async throws {
        try await LocalService.run { host in
            let rest = try await host.client(device: "promo-tv")
            let tv = LegacyV1Client(host: host, identity: .bearer(rest), deviceID: "promo-tv")
            let start = try await tv.call(
                .POST, "/api/v1/authenticate/freepreview",
                [("requestor_id", "REF"), ("deviceId", "promo-tv"), ("mso_id", "TempPass"), ("domain_name", "127.0.0.1")])
            #expect(start.status == 204)
            #expect(try await tv.device(.GET, "/api/v1/tokens/authn").json?["mvpd"] as? String == "TempPass")
            #expect(try await tv.device(.GET, "/api/v1/tokens/media", [("resource", "movies")]).status == 200)
            #expect(try await tv.device(.DELETE, "/api/v1/logout").status == 204)

            let promo = try await tv.call(
                .POST, "/api/v1/authenticate/freepreview",
                [
                    ("requestor_id", "REF"), ("deviceId", "promo-tv"), ("mso_id", "TempPassPromo"), ("domain_name", "127.0.0.1"),
                    ("generic_data", "(\"email\":\"f7ee5ec7312165148b69fcca1d29075b14b8aef0b5048a332b18b88d09069fb7\")"),
                ])
            #expect(promo.status == 204)
            #expect(try await tv.device(.GET, "/api/v1/authorize", [("resource", "news")]).status == 200)
            let metadata = try await tv.device(.GET, "/api/v1/tokens/usermetadata")
            let data = try #require(metadata.json?["data"] as? [String: Any])
            #expect(data["remaining_resources"] as? String == "2")

            // The pass ends after 10 minutes (plain TempPass): a new free preview is refused.
            host.clock.advance(by: 11 * 60)
            let expired = try await tv.call(
                .POST, "/api/v1/authenticate/freepreview",
                [("requestor_id", "REF"), ("deviceId", "promo-tv"), ("mso_id", "TempPass"), ("domain_name", "127.0.0.1")])
            #expect(expired.status == 403)
            #expect(expired.code == "temporary_access_duration_limit_exceeded")
        }
    }

    @Test func platformSingleSignOnExchangesTheMVPDAnswerForAnAuthNToken() async throws {
        try await LocalService.run { host in
            let pair = try await host.service.keyOperations.issueLegacyKeyPair(requestor: "REF")
            let tv = LegacyV1Client(host: host, identity: .hmac(publicKey: pair.publicKey, privateKey: pair.privateKey), deviceID: "apple-tv-4k")
            let request = try await tv.device(.GET, "/api/v1/REF/profile-requests/DemoSSO", [("deviceType", "tvOS")])
            #expect(request.status == 200)
            #expect(request.headers.first(name: "Content-Type") == "application/octet-stream")
            #expect(try await tv.device(.GET, "/api/v1/REF/profile-requests/DemoCable", [("deviceType", "tvOS")]).status == 400)

            // The platform relays the request to the MVPD and hands back its signed answer (Base64, then Base64 again).
            let platform = RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "platform")
            let answer = try await platform.send(
                .POST, "/demo-mvpd/DemoSSO/platform/sso",
                form: [("verificationToken", request.text), ("username", "dave"), ("password", "dave-pass")], authorized: false)
            let saml = try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: String])?["samlAttributeQueryResponse"])
            let fields = [
                ("requestor", "REF"), ("deviceId", "apple-tv-4k"), ("mvpd", "DemoSSO"), ("deviceType", "tvOS"),
                ("SAMLResponse", Data(saml.utf8).base64EncodedString()),
            ]
            #expect(try await tv.call(.POST, "/api/v1/tokens/authn", fields).status == 204)
            let authn = try await tv.device(.GET, "/api/v1/tokens/authn")
            #expect(authn.json?["mvpd"] as? String == "DemoSSO")
            let replay = try await tv.call(.POST, "/api/v1/tokens/authn", fields)
            #expect(replay.status == 400)
            #expect(replay.code == "invalid_parameter_saml_response")
            let missing = try await tv.call(.POST, "/api/v1/tokens/authn", Array(fields.dropLast()))
            #expect(missing.status == 400)
            #expect(try await tv.device(.GET, "/api/v1/authorize", [("resource", "news")]).status == 200)
        }
    }
}
