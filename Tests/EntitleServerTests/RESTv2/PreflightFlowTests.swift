import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Preflight in one MVPD call (notes §3, multi-channel AuthZ): with the integration's preflight setting, preauthorize
/// asks the XACML PDP about up to `max` resources per request and matches one `Result` per resource; authorize still
/// asks per resource. The answers are handwritten from the notes.
@Suite struct PreflightFlowTests {
    static let threeResults = """
        <Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os">
          <Result ResourceId="news"><Decision>Permit</Decision>
            <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status></Result>
          <Result ResourceId="sports"><Decision>Permit</Decision>
            <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status></Result>
          <Result ResourceId="movies"><Decision>Deny</Decision>
            <Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status>
            <xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
              <xacml:Obligation ObligationId="urn:tve:xacml:2.0:obligations:restrict-pc" FulfillOn="Deny"/>
            </xacml:Obligations></Result>
        </Response>
        """

    @Test func preauthorizeAsksSeveralResourcesPerCall() async throws {
        let pdp = FixedPDP()
        try await pdp.run { url in
            try await LocalService.run { host in
                try await XACMLAuthorizationFlowTests.configure(host, url: url, kind: .xacml)
                try await host.service.repository.mvpdOptionsStore.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 2)
                let tv = try await host.client()
                _ = try await host.signIn(tv, user: "bob")
                pdp.set(Self.threeResults)

                let items = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports", "movies"])
                    .decode(DecisionsResponse.self).decisions
                #expect(items.map(\.authorized) == [true, true, false], "\(items)")
                #expect(items[2].error?.code == "authorization_denied_by_parental_controls")
                let asked = pdp.asked.withLock { $0.map(\.body) }
                #expect(asked.count == 2, "two calls of at most 2 resources")
                #expect(asked.first?.contains(">news<") == true && asked.first?.contains(">sports<") == true)
                #expect(asked.first?.contains(">movies<") == false && asked.last?.contains(">movies<") == true)

                // One call for all of them when the limit allows it.
                try await host.service.repository.mvpdOptionsStore.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: 10)
                pdp.asked.withLock { $0.removeAll() }
                _ = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports", "movies"])
                #expect(pdp.asked.withLock { $0.count } == 1)

                // An answer that leaves a resource out: that resource fails, naming the MVPD; the others stand.
                pdp.set(Self.threeResults.replacingOccurrences(of: "ResourceId=\"sports\"", with: "ResourceId=\"other\""))
                let partial = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports"])
                    .decode(DecisionsResponse.self).decisions
                #expect(partial[0].authorized)
                #expect(partial[1].error?.code == "network_received_error" && partial[1].error?.details?.contains("Demo Cable") == true)

                // Without the setting, each resource is its own call again.
                try await host.service.repository.mvpdOptionsStore.setPreflight(requestor: "REF", mvpd: "DemoCable", maxResources: nil)
                pdp.set(XACMLDocuments.permit)
                pdp.asked.withLock { $0.removeAll() }
                _ = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: ["news", "sports"])
                #expect(pdp.asked.withLock { $0.count } == 2)
            }
        }
    }
}
