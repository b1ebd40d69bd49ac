import AsyncHTTPClient
import ChildProcess
import Crypto
import _CryptoExtras
import EntitleClients
import EntitleCore
import EntitleHTTP
import EntitleModel
import EntitleTesting
import Foundation
import MediaTokenVerifier
import NIOCore
import Testing

/// A client that resumes with the tokens of an earlier run and sends no app credential, as yt-dlp's Adobe Pass client
/// does on its second run (issue 39 point 4): the tokens' own signature, record and device binding are the credential.
/// Over real sockets, on the engine `ENTITLE_TEST_DATABASE_URL` picks.
@Suite struct AdobeServicesResumedRunTests {
    /// What the first run left in the client's cache.
    struct FirstRun {
        let rest: RESTClient
        let deviceID: String
        let authn: String
        let authz: String
        /// The AuthN token's GUID (yt-dlp's `session_guid`).
        let guid: String
        /// The AuthN token's `simpleSamlNameID` and `simpleSamlSessionIndex`, as yt-dlp reads them (element text).
        let nameID: String
        let sessionIndex: String
    }

    /// yt-dlp's first run: individualization, DCR, reggie code, sign-in at DemoCable, `session`, `authorize` of `resource`.
    static func firstRun(_ host: LocalService, user: String = "alice", resource: String = "news") async throws -> FirstRun {
        var indiv = HTTPClientRequest(url: host.baseURL + "/indiv/devices")
        indiv.method = .POST
        indiv.headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        indiv.body = .bytes(ByteBuffer(string: #"{"fingerprint":"\#(UUID().uuidString)"}"#))
        let indivBody = try await host.httpClient.execute(indiv, timeout: AnswerPatience.timeAmount).body.collect(upTo: 4096)
        let deviceID = try #require((try JSONSerialization.jsonObject(with: Data(buffer: indivBody)) as? [String: Any])?["deviceId"] as? String)
        let rest = try await host.client(device: deviceID)
        let code = try await LegacyV1Client(host: host, identity: .bearer(rest), deviceID: deviceID).registrationCode()
        let url =
            host.baseURL + "/adobe-services/authenticate/saml?"
            + FormURLEncoding.encode([
                ("noflash", "true"), ("mso_id", "DemoCable"), ("requestor_id", "REF"), ("no_iframe", "false"), ("domain_name", "adobe.com"),
                ("redirect_url", "https://example.com/watch"), ("reg_code", code),
            ])
        _ = try await DemoSignIn.signIn(browser: host.browser(), authenticationURL: url, username: user, password: user + "-pass")
        let session = try await AdobeServicesFlowTests.post(
            host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", code)], bearer: rest)
        let authn = try #require(AdobeServicesFlowTests.unescaped(session, "authnToken"))
        let authorize = try await AdobeServicesFlowTests.post(
            host, "authorize",
            [("resource_id", resource), ("requestor_id", "REF"), ("authentication_token", authn), ("mso_id", "DemoCable"), ("userMeta", "1")],
            bearer: rest)
        let authz = try #require(AdobeServicesFlowTests.unescaped(authorize, "authzToken"))
        func element(_ name: String) throws -> String {
            let start = try #require(authn.range(of: "<\(name)>"))
            let end = try #require(authn.range(of: "</\(name)>", range: start.upperBound..<authn.endIndex))
            return String(authn[start.upperBound..<end.lowerBound])
        }
        return FirstRun(
            rest: rest, deviceID: deviceID, authn: authn, authz: authz, guid: try element("simpleTokenAuthenticationGuid"),
            nameID: try element("simpleSamlNameID"), sessionIndex: try element("simpleSamlSessionIndex"))
    }

    /// Posts a form to `/adobe-services/{name}` with no app credential, with yt-dlp's headers (and `extra`).
    static func post(_ host: LocalService, _ name: String, _ fields: [(String, String)], headers extra: [(String, String)] = []) async throws
        -> V1Answer
    {
        var request = HTTPClientRequest(url: host.baseURL + "/adobe-services/" + name)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        for (name, value) in [("ap_42", "anonymous"), ("ap_11", "Linux i686"), ("ap_z", "Mozilla/5.0"), ("User-Agent", "Mozilla/5.0")] + extra {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(string: FormURLEncoding.encode(fields)))
        let response = try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
        let body = try await response.body.collect(upTo: 1024 * 1024)
        return V1Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// yt-dlp's `shortAuthorize` of its second run.
    static func shortAuthorize(
        _ host: LocalService, _ run: FirstRun, authz: String? = nil, guid: String? = nil, requestor: String = "REF",
        headers: [(String, String)]? = nil, extra: [(String, String)] = []
    ) async throws -> V1Answer {
        try await post(
            host, "shortAuthorize",
            [("authz_token", authz ?? run.authz), ("requestor_id", requestor), ("session_guid", guid ?? run.guid), ("hashed_guid", "false")] + extra,
            headers: headers ?? [("ap_19", run.nameID), ("ap_23", run.sessionIndex)])
    }

    /// The client id in the `sub` of a DCR access token.
    static func clientID(_ rest: RESTClient) throws -> String {
        let payload = try #require(rest.accessToken?.split(separator: ".").dropFirst().first).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let padded = payload + String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: padded))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(claims["sub"] as? String)
    }

    @Test func theCachedTokensAreTheCredentialOfTheResumedCalls() async throws {
        try await LocalService.run { host in
            let run = try await Self.firstRun(host)
            let pem = try await run.rest.send(.GET, "/keys/media-token", authorized: false).text
            let verifier = MediaTokenVerifier(keys: try VerificationKeySet(pem: pem))

            // shortAuthorize with the cached AuthZ token: a media token for the token's resource.
            let short = try await Self.shortAuthorize(host, run)
            #expect(short.status == 200, "\(short.text)")
            #expect(await verifier.verify(short.text, requestor: "REF", resource: "news", now: host.clock.now()).status == .valid)
            // Without ap_19/ap_23 too (they are checked when sent).
            #expect(try await Self.shortAuthorize(host, run, headers: []).status == 200)

            // authorize with the cached AuthN token (its AuthZ token expired): a new AuthZ token, then a media token.
            let authorize = try await Self.post(
                host, "authorize",
                [("resource_id", "sports"), ("requestor_id", "REF"), ("authentication_token", run.authn), ("mso_id", "DemoCable"), ("userMeta", "1")])
            #expect(authorize.status == 200, "\(authorize.text)")
            let authz = try #require(AdobeServicesFlowTests.unescaped(authorize, "authzToken"))
            #expect(authorize.xml("userMeta")?.contains("H-1001") == true)
            let sports = try await Self.shortAuthorize(host, run, authz: authz)
            #expect(await verifier.verify(sports.text, requestor: "REF", resource: "sports", now: host.clock.now()).status == .valid)
            // preauthorize and usermetadata, which carry the AuthN token, are answered alike.
            let pre = try await Self.post(
                host, "preauthorize",
                [("authentication_token", run.authn), ("requestor_id", "REF"), ("resource_id", "news"), ("resource_id", "movies")])
            #expect(pre.text.contains("<resource><id>news</id><authorized>true</authorized></resource>"), "\(pre.text)")
            let metadata = try await Self.post(host, "usermetadata", [("requestor", "REF"), ("authentication_token", run.authn)])
            #expect(metadata.status == 200 && metadata.text.contains("H-1001"))
            // Calls that carry no token still need the app's credential.
            let session = try await Self.post(host, "session", [("_method", "GET"), ("requestor_id", "REF"), ("reg_code", "ABCDEF")])
            #expect(session.status == 401 && session.xml("code") == "missing_authentication_header")
        }
    }

    @Test func forgedForeignAlteredRevokedAndLoggedOutTokensAreRefused() async throws {
        try await LocalService.run { host in
            let run = try await Self.firstRun(host)
            var answers: [V1Answer] = []
            func refused(_ answer: V1Answer, _ status: Int, _ code: String, _ note: Comment) {
                answers.append(answer)
                #expect(answer.status == status && answer.xml("code") == code, note)
            }

            // Altered: the body no longer matches the signature.
            let altered = run.authz.replacingOccurrences(of: "<simpleTokenResourceID>news<", with: "<simpleTokenResourceID>movies<")
            #expect(altered != run.authz)
            refused(try await Self.shortAuthorize(host, run, authz: altered), 401, "invalid_authorization_token", "altered authz token")
            let alteredAuthn = run.authn.replacingOccurrences(of: "DemoCable", with: "DemoFiber")
            refused(
                try await Self.post(host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", alteredAuthn)]),
                401, "invalid_authentication_token", "altered authn token")
            // Forged: well formed, signed with a key that is not the service's.
            let body = String(run.authz[run.authz.range(of: "<simpleAuthorizationToken>")!.lowerBound...])
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let signature = try key.signature(for: Data(body.utf8), padding: .insecurePKCS1v1_5).rawRepresentation.base64EncodedString()
            let forged = "<signatureInfo>" + signature + "<signatureInfo>" + body
            refused(try await Self.shortAuthorize(host, run, authz: forged), 401, "invalid_authorization_token", "forged authz token")
            refused(try await Self.shortAuthorize(host, run, authz: "garbage"), 401, "invalid_authorization_token", "garbage")
            // An AuthZ token is not an AuthN token.
            refused(
                try await Self.post(host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", run.authz)]),
                401, "invalid_authentication_token", "authz token as authn token")
            // Foreign: presented for another requestor.
            refused(try await Self.shortAuthorize(host, run, requestor: "OTHER"), 401, "authentication_session_issuer_mismatch", "other requestor")
            // session_guid must be the token's sign-in; without it the token alone is no credential.
            refused(
                try await Self.shortAuthorize(host, run, guid: String(repeating: "0", count: 32)), 401, "invalid_authorization_token",
                "wrong session_guid")
            refused(
                try await Self.post(host, "shortAuthorize", [("authz_token", run.authz), ("requestor_id", "REF")]), 401,
                "missing_authentication_header", "no session_guid")
            // ap_19 / ap_23 of another sign-in.
            refused(
                try await Self.shortAuthorize(host, run, headers: [("ap_19", "someone-else"), ("ap_23", run.sessionIndex)]), 401,
                "invalid_authentication_token", "ap_19")
            refused(
                try await Self.shortAuthorize(host, run, headers: [("ap_19", run.nameID), ("ap_23", "another-session")]), 401,
                "invalid_authentication_token", "ap_23")
            // Another device: the client must drop its tokens.
            let otherDevice = try await Self.shortAuthorize(host, run, extra: [("device_id", "another-device")])
            #expect(otherDevice.text == "<pendingLogout reason=\"58772\">true</pendingLogout>")
            let otherHeader = try await Self.shortAuthorize(host, run, headers: [("Ap_21", "another-device")])
            #expect(otherHeader.text == "<pendingLogout reason=\"58772\">true</pendingLogout>")
            #expect(try await Self.shortAuthorize(host, run, headers: [("Ap_21", run.deviceID)]).status == 200)

            // Logged out (over REST v2, by the same app): pendingLogout, as yt-dlp expects, so it signs in again.
            #expect(try await run.rest.send(.GET, "/api/v2/REF/logout").status == 200)
            let stale = try await Self.shortAuthorize(host, run)
            #expect(stale.text == "<pendingLogout reason=\"58772\">true</pendingLogout>")
            let staleAuthorize = try await Self.post(
                host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", run.authn), ("mso_id", "DemoCable")])
            #expect(staleAuthorize.text == "<pendingLogout reason=\"34764\">true</pendingLogout>")

            // Revoked client: its tokens are no credential any more.
            let second = try await Self.firstRun(host, user: "bob", resource: "sports")
            #expect(try await Self.shortAuthorize(host, second).status == 200)
            try await host.service.applications.revokeClient(id: try Self.clientID(second.rest), actor: "test")
            refused(try await Self.shortAuthorize(host, second), 401, "invalid_client_id", "revoked client")
            refused(
                try await Self.post(
                    host, "authorize", [("resource_id", "news"), ("requestor_id", "REF"), ("authentication_token", second.authn)]),
                401, "invalid_client_id", "revoked client, authorize")
            #expect(answers.allSatisfy { $0.text.hasPrefix("<error>") || $0.text.contains("<error") })
            #expect(answers.allSatisfy { $0.status < 500 })
        }
    }
}
