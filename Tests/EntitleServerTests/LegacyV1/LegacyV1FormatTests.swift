import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// REST v1 answers in the format asked for, throttled answers too, and refuses a format it does not know.
@Suite struct LegacyV1FormatTests {
    @Test func v1RefusesAnUnknownFormatAndThrottlesInTheAskedFormat() async throws {
        try await RouterService.run(rateLimit: 1, burst: 1) { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            let unknown = try await client.send(.GET, "/api/v1/config/REF?format=AAA", authorized: false)
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("The format parameter must be xml or json."), "\(unknown.text)")
            var throttled: RESTClient.Answer?
            for _ in 0..<5 {
                let answer = try await client.send(.GET, "/api/v1/config/REF?format=json", authorized: false)
                if answer.status == 429 { throttled = answer }
            }
            let answer = try #require(throttled)
            #expect(answer.headers.first(name: "Content-Type") == "application/json")
            #expect(answer.text.hasPrefix(#"{"status":429"#), "\(answer.text)")
            #expect(answer.headers.first(name: "Retry-After") != nil)
            let xml = try await client.send(.GET, "/api/v1/config/REF?format=xml", authorized: false)
            #expect(xml.status == 429)
            #expect(xml.text.contains("<status>429</status>"))
        }
    }
}
