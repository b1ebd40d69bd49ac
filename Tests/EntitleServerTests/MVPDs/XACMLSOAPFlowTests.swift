import ChildProcess
import AsyncHTTPClient
import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import NIOCore
import SAML
import Testing

/// The SOAP/SAML binding of XACML end to end (notes §1.3(b), §1.4, §1.6): the service sends a SOAP
/// `XACMLAuthzDecisionQuery`, signed with its SAML SP key where the MVPD requires it; the DemoMVPD verifies that signature
/// against the SP certificate (DemoFiber refuses unsigned queries) and answers with a signed SAML Response, whose signature
/// and issuer the service checks. SQLite here, PostgreSQL under `scripts/with-postgres.sh`.
@Suite struct XACMLSOAPFlowTests {
    /// Points `mvpd` at the DemoMVPD's SOAP PDP through the recorded domain operation.
    static func useSOAP(_ host: LocalService, mvpd: String, sign: Bool, path: String = "xacml/soap") async throws {
        let url = try #require(try await host.service.repository.catalogStore.mvpd(id: mvpd)?.authorizationUrl)
        var update = MVPDUpdate()
        update.authorizationURL = String(url.dropLast("authorize".count)) + path
        update.authorizationProtocol = .xacml
        update.xacmlBinding = .soap
        update.signAuthorizationQueries = sign
        try await host.service.mvpds.update(id: mvpd, update, actor: "test")
    }

    static func decide(_ tv: RESTClient, _ mvpd: String, _ resources: [String], _ kind: String = "authorize") async throws -> [Decision] {
        try await tv.decisions(kind, mvpd: mvpd, resources: resources).decode(DecisionsResponse.self).decisions
    }

    @Test func signedQueriesToAnMVPDThatRequiresThem() async throws {
        try await LocalService.run { host in
            try await Self.useSOAP(host, mvpd: "DemoFiber", sign: true)
            let view = try await host.service.mvpds.view(id: "DemoFiber")
            #expect(view.authorizationProtocol == "xacml" && view.xacmlBinding == "soap" && view.signAuthorizationQueries)
            let tv = try await host.client()
            _ = try await host.signIn(tv, mvpd: "DemoFiber", user: "carol")
            let decisions = try await Self.decide(tv, "DemoFiber", ["news", "sports"])
            #expect(decisions[0].authorized, "\(decisions[0])")
            #expect(decisions[0].token != nil)
            #expect(decisions[1].error?.code == .authorizationDeniedByMVPD)
            #expect(decisions[1].error?.details?.contains("Demo Fiber") == true)

            // Preflight in one signed SOAP call.
            try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoFiber", maxResources: 5, actor: "test")
            let preflight = try await Self.decide(tv, "DemoFiber", ["news", "sports", "movies"], "preauthorize")
            #expect(preflight.map(\.authorized) == [true, false, false])
            #expect(preflight[1].error?.code == .preauthorizationDeniedByMVPD)

            // The same MVPD without signing: it refuses the query, the decision fails naming it (never a 500).
            var unsigned = MVPDUpdate()
            unsigned.signAuthorizationQueries = false
            try await host.service.mvpds.update(id: "DemoFiber", unsigned, actor: "test")
            let refused = try await Self.decide(tv, "DemoFiber", ["weather"])[0]
            #expect(!refused.authorized)
            #expect(refused.error?.code == .networkReceivedError)
            #expect(refused.error?.details?.contains("HTTP 403") == true && refused.error?.details?.contains("Demo Fiber") == true)
        }
    }

    @Test func unsignedSOAPToAnMVPDThatDoesNotRequireSigning() async throws {
        try await LocalService.run { host in
            try await Self.useSOAP(host, mvpd: "DemoCable", sign: false)
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let decisions = try await Self.decide(tv, "DemoCable", ["news", "movies"])
            #expect(decisions[0].authorized)
            #expect(decisions[1].error?.code == .authorizationDeniedByParentalControls || decisions[1].error?.code == .authorizationDeniedByMVPD)
        }
    }

    /// Queries posted straight to the DemoMVPD's SOAP PDP: forged, tampered, unsigned (where required) and unknown
    /// issuers are refused; the genuine one is answered with a SAML Response signed by the IdP key.
    @Test func demoPDPRefusesForgedTamperedAndUnsignedQueries() async throws {
        try await LocalService.run { host in
            let record = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoFiber"))
            let url = String(try #require(record.authorizationUrl).dropLast("authorize".count)) + "xacml/soap"
            let sp = try await host.service.keys.signingIdentity(purpose: .samlSP)
            let entityID = host.service.configuration.spEntityID
            let context = XACML.request(userID: "carol", subjectForm: .id, resources: ["news"], ipAddress: "127.0.0.1")
            func query(_ signer: SigningIdentity?, issuer: String = entityID) throws -> String {
                guard let signer else {
                    return XACML.soapQuery(request: context, issuer: issuer, destination: url, id: "_q", issueInstant: "2026-11-19T10:00:00Z")
                }
                return try XACML.signedSOAPQuery(
                    request: context, issuer: issuer, destination: url, id: "_q", issueInstant: "2026-11-19T10:00:00Z", signer: signer)
            }
            func post(_ body: String) async throws -> (status: Int, body: String) {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "text/xml")
                request.headers.add(name: "Authorization", value: "Bearer " + (record.authorizationKey ?? ""))
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
                return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
            }
            let genuine = try await post(try query(sp))
            #expect(genuine.status == 200)
            let demoCertificate = try #require(host.host.demo?.configuration.identity.certificate)
            let trust = XACML.AnswerTrust(certificates: [demoCertificate], issuer: host.baseURL + "/demo-mvpd/DemoFiber")
            // Answered (signed by the IdP key, issued by DemoFiber) about the one resource asked.
            #expect(try XACML.parseResponse(genuine.body, trust: trust).map(\.resourceID) == ["news"])

            let forger = try SigningIdentity.generate(commonName: "forger", now: Date())
            let forged = try await post(try query(forger))
            #expect(forged.status == 403 && forged.body.contains("does not verify"), "\(forged)")
            let tampered = try await post(try query(sp).replacingOccurrences(of: ">news<", with: ">movies<"))
            #expect(tampered.status == 403 && tampered.body.contains("digest"), "\(tampered)")
            let unsigned = try await post(try query(nil))
            #expect(unsigned.status == 403 && unsigned.body.contains("must be signed"), "\(unsigned)")
            let stranger = try await post(try query(nil, issuer: "https://stranger.example"))
            #expect(stranger.status == 403, "\(stranger)")
            let garbage = try await post("<not-soap/>")
            #expect(garbage.status == 400, "\(garbage)")
        }
    }

    /// A PDP on loopback that answers with handwritten or foreign-signed SOAP documents: the service checks the answer's
    /// signature and issuer against the MVPD's metadata; the signed query it sent verifies with xmlsec1.
    @Test func answersWithAForgedSignatureOrAnotherIssuerFail() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await XACMLAuthorizationFlowTests.configure(host, url: url, kind: .xacml)
                var update = MVPDUpdate()
                update.xacmlBinding = .soap
                update.signAuthorizationQueries = true
                try await host.service.mvpds.update(id: "DemoCable", update, actor: "test")
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                let idp = try #require(host.host.demo?.configuration.identity)
                let issuer = host.baseURL + "/demo-mvpd/DemoCable"
                let permit = XACML.response([("news", true, nil, nil)])
                func answer(_ signer: SigningIdentity, issuer: String) throws -> String {
                    try XACML.soapResponse(response: permit, issuer: issuer, audience: nil, inResponseTo: nil, signer: signer, now: Date())
                }

                pdp.set(try answer(idp, issuer: issuer))
                #expect(try await Self.decide(tv, "DemoCable", ["news"])[0].authorized)
                let sent = try #require(pdp.asked.withLock { $0.last?.body })
                #expect(sent.contains("XACMLAuthzDecisionQuery") && sent.contains("<ds:Signature"))
                try Self.xmlsecVerifies(sent, certificatePEM: try await host.service.keys.signingIdentity(purpose: .samlSP).certificatePEM)

                pdp.set(try answer(try SigningIdentity.generate(commonName: "forger", now: Date()), issuer: issuer))
                let forged = try await Self.decide(tv, "DemoCable", ["sports"])[0]
                #expect(forged.error?.code == .networkReceivedError && forged.error?.details?.contains("signature") == true, "\(forged)")

                pdp.set(try answer(idp, issuer: "https://impostor.example"))
                let impostor = try await Self.decide(tv, "DemoCable", ["movies"])[0]
                #expect(impostor.error?.code == .networkReceivedError && impostor.error?.details?.contains("impostor") == true, "\(impostor)")

                pdp.set(XACMLDocuments.malformed)
                #expect(try await Self.decide(tv, "DemoCable", ["kids"])[0].error?.code == .networkReceivedError)
            }
        }
    }

    /// Runs `xmlsec1 --verify` on a signed SOAP query (skipped where xmlsec1 is missing, outside CI).
    static func xmlsecVerifies(_ xml: String, certificatePEM: String) throws {
        let path = "/usr/bin/xmlsec1"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "xmlsec1 is missing in CI")
            return
        }
        let folder = NSTemporaryDirectory() + "entitle-soap-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try xml.write(toFile: folder + "/q.xml", atomically: true, encoding: .utf8)
        try certificatePEM.write(toFile: folder + "/sp.pem", atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            path,
            [
                "--verify", "--pubkey-cert-pem", folder + "/sp.pem", "--id-attr:ID",
                "urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:protocol:XACMLAuthzDecisionQuery", folder + "/q.xml",
            ])
        #expect(result.status == 0, "xmlsec1 rejected the service's signed query: \(result.output)")
    }
}
