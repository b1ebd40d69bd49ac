import AsyncHTTPClient
import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The REST preflight form (notes §2, §3; the guide documents no REST preflight, Entitle's choice is in
/// `docs/mvpd-protocols.md`): the REST GET with one `mrss` per resource, answered with one XACML `Result` per resource.
@Suite struct RESTPreflightFlowTests {
    static func items(_ query: String) -> [(String, String)] {
        (URLComponents(string: "?" + query)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    @Test func preauthorizeAsksSeveralResourcesInOneRESTCall() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await XACMLAuthorizationFlowTests.configure(host, url: url, kind: .rest)
                try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 2, actor: "test")
                #expect(try await host.service.mvpds.view(id: "DemoCable").preflightMaxResources == ["REF": 2])
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                pdp.set(PreflightFlowTests.threeResults)

                let decisions = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports", "movies"])
                    .decode(DecisionsResponse.self).decisions
                #expect(decisions.map(\.authorized) == [true, true, false], "\(decisions)")
                // Checked before indexing, so that a wrong answer fails the test instead of crashing the test process.
                try #require(decisions.count == 3)
                #expect(decisions[2].error?.code == "authorization_denied_by_parental_controls")
                let queries = pdp.asked.withLock { $0.map(\.query) }
                #expect(queries.count == 2, "two calls of at most 2 resources")
                let first = Self.items(try #require(queries.first))
                #expect(first.filter { $0.0 == "mrss" }.count == 2)
                #expect(first.filter { $0.0 == "uuID" }.count == 1 && first.contains { $0 == ("IPAddress", "127.0.0.1") })
                let channels = first.filter { $0.0 == "mrss" }.compactMap { Data(base64Encoded: $0.1).map { String(decoding: $0, as: UTF8.self) } }
                #expect(channels.count == 2 && channels[0].contains("<title>news</title>") && channels[1].contains("<title>sports</title>"))

                // A failing PDP: every resource of the call fails, naming the MVPD; never a 500.
                pdp.set("", status: .badGateway)
                let failed = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports"])
                #expect(failed.status == 200)
                let items = try failed.decode(DecisionsResponse.self).decisions
                #expect(items.allSatisfy { $0.error?.code == "network_received_error" && $0.error?.details?.contains("Demo Cable") == true })
            }
        }
    }

    @Test func demoMVPDAnswersTheRESTPreflightForm() async throws {
        try await LocalService.run { host in
            let url = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoCable")?.authorizationUrl)
            var update = MVPDUpdate()
            update.authorizationURL = String(url.dropLast("authorize".count)) + "rest/authz"
            update.authorizationProtocol = .rest
            try await host.service.mvpds.update(id: "DemoCable", update, actor: "test")
            try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 10, actor: "test")
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "bob")
            let decisions = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports", "movies"])
                .decode(DecisionsResponse.self).decisions
            #expect(decisions.map(\.authorized) == [true, true, false], "\(decisions)")

            // The DemoMVPD refuses a REST call without mrss, with a broken one, or with too many.
            let key = try #require(try await host.service.repository.catalogStore.mvpd(id: "DemoCable")?.authorizationKey)
            func status(_ query: String) async throws -> Int {
                var request = HTTPClientRequest(url: String(url.dropLast("authorize".count)) + "rest/authz?" + query)
                request.headers.add(name: "Authorization", value: "Bearer " + key)
                return Int(try await host.httpClient.execute(request, timeout: AnswerPatience.timeAmount).status.code)
            }
            let news = Data("news".utf8).base64EncodedString()
            #expect(try await status("uuID=u&mrss=\(news)") == 200)
            #expect(try await status("uuID=u") == 400)
            #expect(try await status("uuID=u&mrss=%25%25%25") == 400)
            #expect(try await status("uuID=u" + String(repeating: "&mrss=\(news)", count: 101)) == 400)
        }
    }

    @Test func preflightSettingIsRefusedWhereItCannotWork() async throws {
        try await LocalService.run { host in
            func code(_ body: () async throws -> Void) async -> String? {
                do {
                    try await body()
                    return nil
                } catch let error as AdminError { return error.code } catch { return "\(error)" }
            }
            // DemoCable answers Entitle's JSON contract: no preflight in one call.
            #expect(
                await code { try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 5, actor: "t") }
                    == "invalid_value")
            #expect(
                await code { try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 5000, actor: "t") }
                    == "invalid_value")
            #expect(
                await code { try await host.service.integrations.setPreflight(requestor: "NOPE", mvpd: "DemoCable", maxResources: 0, actor: "t") }
                    == "unknown_integration")
            // Turning it off is always allowed, and recorded.
            #expect(
                await code { try await host.service.integrations.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 0, actor: "t") }
                    == nil)
        }
    }
}
