import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Hummingbird
import NIOCore
import Synchronization
import Testing

/// A stand-in MVPD Policy Decision Point on loopback: answers every question with the document the test set (written
/// by hand from the MVPD integration notes, not by Entitle's encoder) and keeps what it was asked.
final class FixedPDP: Sendable {
    let answer = Mutex<(status: HTTPResponse.Status, body: String)>((.ok, ""))
    let asked = Mutex<[(query: String, body: String)]>([])

    /// Runs the PDP on an ephemeral loopback port while `body` runs; stops it afterwards.
    func run(_ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.on("/pdp", method: .post) { request, _ in try await self.reply(request) }
        router.on("/pdp", method: .get) { request, _ in try await self.reply(request) }
        try await withLoopbackServer(router) { base in try await body(base + "/pdp") }
    }

    private func reply(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        asked.withLock { $0.append((request.uri.query ?? "", String(buffer: body))) }
        let (status, text) = answer.withLock { $0 }
        return Response(
            status: status, headers: [.contentType: "text/xml"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func set(_ body: String, status: HTTPResponse.Status = .ok) { answer.withLock { $0 = (status, body) } }
}

/// Handwritten XACML 2.0 answers (notes §1, §2 and the detail file: bare, SOAP/SAML-wrapped, obligations).
enum XACMLDocuments {
    static let permit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os">
          <Result><Decision>Permit</Decision><Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status>
            <xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
              <xacml:Obligation ObligationId="urn:cablelabs:olca:1.0:obligations:re-authz" FulfillOn="Permit">
                <xacml:AttributeAssignment AttributeId="urn:cablelabs:olca:1.0:attribute:re-authz:ttl"
                  DataType="http://www.w3.org/2001/XMLSchema#integer">3600</xacml:AttributeAssignment>
              </xacml:Obligation>
            </xacml:Obligations>
          </Result>
        </Response>
        """
    static let parentalDenyInSOAP = """
        <soap11:Envelope xmlns:soap11="http://schemas.xmlsoap.org/soap/envelope/"><soap11:Body>
        <samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"
          ID="r1" Version="2.0" IssueInstant="2026-11-24T17:00:00Z">
          <samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
          <saml:Assertion ID="a1" Version="2.0" IssueInstant="2026-11-24T17:00:00Z"><saml:Issuer>https://pdp.example</saml:Issuer>
            <saml:Statement xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
              xmlns:xacml-saml="urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:assertion"
              xsi:type="xacml-saml:XACMLAuthzDecisionStatementType">
              <xacml-context:Response xmlns:xacml-context="urn:oasis:names:tc:xacml:2.0:context:schema:os">
                <xacml-context:Result ResourceId="movies"><xacml-context:Decision>Deny</xacml-context:Decision>
                  <xacml-context:Status><xacml-context:StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/>
                    <xacml-context:StatusMessage>Blocked by your parental controls.</xacml-context:StatusMessage></xacml-context:Status>
                  <xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
                    <xacml:Obligation ObligationId="urn:tve:xacml:2.0:obligations:restrict-pc" FulfillOn="Deny"/>
                  </xacml:Obligations>
                </xacml-context:Result>
              </xacml-context:Response>
            </saml:Statement>
          </saml:Assertion>
        </samlp:Response></soap11:Body></soap11:Envelope>
        """
    static let upgradeDeny = """
        <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os"><Result><Decision>Deny</Decision>
        <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status>
        <Obligations xmlns="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
        <Obligation ObligationId="urn:tve:xacml:2.0:obligations:upgrade" FulfillOn="Deny"/></Obligations></Result></Response>
        """
    static let indeterminate = """
        <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os"><Result><Decision>Indeterminate</Decision>
        <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:processing-error"/></Status></Result></Response>
        """
    static let unknownDecision = """
        <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os"><Result><Decision>Maybe</Decision></Result></Response>
        """
    static let malformed = "<Response xmlns=\"urn:oasis:names:tc:xacml:2.0:context:schema:os\"><Result><Decision>Permit"
}

/// XACML 2.0 and REST authorization end to end: real service, real sockets, a loopback PDP answering handwritten
/// documents; SQLite here, PostgreSQL under `scripts/with-postgres.sh`.
@Suite struct XACMLAuthorizationFlowTests {
    /// Points DemoCable's authorization at the PDP with `kind`.
    static func configure(_ host: LocalService, url: String, kind: MVPDAuthorizationProtocol) async throws {
        var mvpd = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoCable"))
        mvpd.authorizationUrl = url
        mvpd.authorizationKey = nil
        try await host.service.repository.catalogStore.upsertMVPD(mvpd)
        try await host.service.repository.catalogStore.setAuthorizationProtocol(mvpd: "DemoCable", kind)
    }

    static func decide(_ tv: RESTClient, _ resource: String) async throws -> Decision {
        try await tv.decisions("authorize", mvpd: "DemoCable", resources: [resource]).decode(DecisionsResponse.self).decisions[0]
    }

    @Test func xacmlDecisionsObligationsAndFailuresMapToEnhancedErrors() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await Self.configure(host, url: url, kind: .xacml)
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")

                pdp.set(XACMLDocuments.permit)
                let permit = try await Self.decide(tv, "news")
                #expect(permit.authorized)
                #expect(permit.token != nil)
                // The request context as the notes give it: subject-token (base64 user id), resource id, VIEW, IP.
                let request = try #require(pdp.asked.withLock { $0.last?.body })
                #expect(request.contains("urn:oasis:names:tc:xacml:2.0:context:schema:os"))
                #expect(request.contains("urn:oasis:names:tc:xacml:1.0:subject:subject-token"))
                #expect(request.contains("urn:oasis:names:tc:xacml:1.0:resource:resource-id"))
                #expect(request.contains(">news<"))
                #expect(request.contains(">VIEW<"))
                #expect(request.contains("urn:oasis:names:tc:xacml:1.0:subject:authn-locality:ip-address"))
                #expect(request.contains(">127.0.0.1<"))

                pdp.set(XACMLDocuments.parentalDenyInSOAP)
                let parental = try await Self.decide(tv, "movies")
                #expect(!parental.authorized)
                #expect(parental.error?.code == .authorizationDeniedByParentalControls)
                #expect(parental.error?.details == "Blocked by your parental controls.")

                pdp.set(XACMLDocuments.upgradeDeny)
                let upgrade = try await Self.decide(tv, "sports")
                #expect(upgrade.error?.code == .authorizationDeniedByMVPD)
                #expect(upgrade.error?.details?.contains("Demo Cable") == true)

                pdp.set(XACMLDocuments.indeterminate)
                let indeterminate = try await Self.decide(tv, "kids")
                #expect(!indeterminate.authorized)
                #expect(indeterminate.error?.code == .networkReceivedError)
                #expect(indeterminate.error?.details?.contains("processing-error") == true)
                #expect(indeterminate.error?.details?.contains("Demo Cable") == true)

                pdp.set(XACMLDocuments.unknownDecision)
                let unknown = try await Self.decide(tv, "weather")
                #expect(unknown.error?.code == .networkReceivedError)
                #expect(unknown.error?.details?.contains("Maybe") == true)

                pdp.set(XACMLDocuments.malformed)
                let malformed = try await Self.decide(tv, "music")
                #expect(malformed.error?.code == .networkReceivedError)
                #expect(malformed.error?.details?.contains("malformed XACML") == true)

                pdp.set("", status: .internalServerError)
                let failing = try await Self.decide(tv, "cooking")
                #expect(failing.error?.code == .networkReceivedError)
                #expect(failing.error?.details?.contains("HTTP 500") == true)
            }
        }
    }

    /// The environment's IP address is the device's as the service saw it: the address a trusted proxy names, in the
    /// XACML environment and the REST form's `IPAddress`; the same header from an untrusted peer changes nothing.
    @Test(arguments: [true, false]) func theDeviceAddressHonoursTheTrustedProxySetting(trusted: Bool) async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            let proxies = trusted ? [try #require(IPAddressRange("127.0.0.0/8"))] : []
            try await LocalService.run(trustedProxies: proxies) { host in
                try await Self.configure(host, url: url, kind: .xacml)
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                pdp.set(XACMLDocuments.permit)
                let forwarded = [("X-Forwarded-For", "198.51.100.7")]
                let body = try JSONEncoder().encode(DecisionsRequest(resources: ["news"]))
                let answer = try await tv.send(.POST, "/api/v2/REF/decisions/authorize/DemoCable", json: body, headers: forwarded)
                #expect(answer.status == 200)
                let expected = trusted ? "198.51.100.7" : "127.0.0.1"
                #expect(pdp.asked.withLock { $0.last?.body }?.contains(">\(expected)<") == true)

                try await Self.configure(host, url: url, kind: .rest)
                _ = try await tv.send(
                    .POST, "/api/v2/REF/decisions/authorize/DemoCable", json: try JSONEncoder().encode(DecisionsRequest(resources: ["sports"])),
                    headers: forwarded)
                #expect(pdp.asked.withLock { $0.last?.query }?.contains("IPAddress=\(expected)") == true)
            }
        }
    }

    /// User metadata delivered at authorization (Comcast's rating limits as obligation attribute assignments on a permit,
    /// notes detail §1.7): kept with the profile as the `maxRating` object the next profile answer shows.
    @Test func ratingLimitsInAPermitBecomeTheProfilesMaxRating() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await Self.configure(host, url: url, kind: .xacml)
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                pdp.set(
                    """
                    <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os"><Result><Decision>Permit</Decision>
                    <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status>
                    <Obligations xmlns="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
                    <Obligation ObligationId="urn:cablelabs:olca:1.0:obligations:log" FulfillOn="Permit">
                    <AttributeAssignment AttributeId="urn:cablelabs:ocla:1.0:attribute:content:ratings:maxMPAA"
                      DataType="http://www.w3.org/2001/XMLSchema#string">PG-13</AttributeAssignment>
                    <AttributeAssignment AttributeId="urn:cablelabs:ocla:1.0:attribute:content:ratings:maxVCHIP"
                      DataType="http://www.w3.org/2001/XMLSchema#string">TV-Y7</AttributeAssignment>
                    </Obligation></Obligations></Result></Response>
                    """)
                #expect(try await Self.decide(tv, "news").authorized)
                let profile = try #require(try await tv.send(.GET, "/api/v2/REF/profiles").decode(ProfilesResponse.self).profiles["DemoCable"])
                #expect(profile.attributes["maxRating"]?.value == .object(["MPAA": .string("PG-13"), "VCHIP": .string("TV-Y7")]), "\(profile)")
                #expect(profile.attributes["householdID"] != nil, "the other metadata stays")
            }
        }
    }

    /// A `re-authz` obligation on a permit is the MVPD's TTL: the answer is kept that long, instead of the integration's
    /// configured authorization TTL (the fallback when the MVPD gives none).
    @Test func theReAuthorizationObligationIsTheMVPDsTTL() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await Self.configure(host, url: url, kind: .xacml)
                try await host.service.repository.catalogStore.setAuthorizationTTL(
                    AuthorizationTTLRecord(requestorId: "*", mvpdId: "DemoCable", ttlSeconds: 60))
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                func calls() -> Int { pdp.asked.withLock { $0.count } }

                pdp.set(XACMLDocuments.permit)  // re-authz after 3600 s
                #expect(try await Self.decide(tv, "news").authorized)
                host.clock.advance(by: 600)  // past the configured 60 s, within the MVPD's 3600 s
                #expect(try await Self.decide(tv, "news").authorized)
                #expect(calls() == 1, "kept for the MVPD's TTL")
                host.clock.advance(by: 3100)
                #expect(try await Self.decide(tv, "news").authorized)
                #expect(calls() == 2, "asked again after the MVPD's TTL")

                // Without the obligation the configured TTL applies.
                pdp.set(XACMLDocuments.permit.replacingOccurrences(of: "re-authz", with: "log"))
                #expect(try await Self.decide(tv, "sports").authorized)
                host.clock.advance(by: 90)
                #expect(try await Self.decide(tv, "sports").authorized)
                #expect(calls() == 4, "asked again after the configured 60 s")
            }
        }
    }

    @Test func restFormSendsUserMRSSAndAddressAndReadsTheAnswer() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await Self.configure(host, url: url, kind: .rest)
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                pdp.set(XACMLDocuments.permit)
                #expect(try await Self.decide(tv, "news").authorized)
                let query = try #require(pdp.asked.withLock { $0.last?.query })
                let items = Dictionary(
                    uniqueKeysWithValues: (URLComponents(string: "?" + query)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                #expect(items["uuID"]?.isEmpty == false)
                #expect(items["IPAddress"] == "127.0.0.1")
                let mrss = try #require(items["mrss"].flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) })
                #expect(mrss.contains("<title>news</title>"))
                pdp.set(XACMLDocuments.upgradeDeny)
                #expect(try await Self.decide(tv, "movies").error?.code == .authorizationDeniedByMVPD)
            }
        }
    }
}

/// The demo world's PDP answers XACML and the REST form for DemoCable with the same decisions as its JSON API.
@Suite struct DemoPDPFlowTests {
    @Test(arguments: [("xacml", MVPDAuthorizationProtocol.xacml), ("rest/authz", .rest)])
    func demoCableDecidesOverTheProtocol(path: String, kind: MVPDAuthorizationProtocol) async throws {
        try await LocalService.run { host in
            var mvpd = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoCable"))
            let url = try #require(mvpd.authorizationUrl)
            #expect(url.hasSuffix("/authorize"))
            mvpd.authorizationUrl = String(url.dropLast("authorize".count)) + path
            try await host.service.repository.catalogStore.upsertMVPD(mvpd)
            try await host.service.repository.catalogStore.setAuthorizationProtocol(mvpd: "DemoCable", kind)
            #expect(try await host.service.repository.catalogStore.authorizationProtocol(mvpd: "DemoCable") == kind)
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let news = try await XACMLAuthorizationFlowTests.decide(tv, "news")
            #expect(news.authorized)
            let movies = try await XACMLAuthorizationFlowTests.decide(tv, "movies")
            #expect(!movies.authorized)
            #expect(movies.error?.code == .authorizationDeniedByMVPD || movies.error?.code == .authorizationDeniedByParentalControls)
        }
    }
}
