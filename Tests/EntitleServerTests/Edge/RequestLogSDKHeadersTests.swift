import EntitleHTTP
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import TestLogCapture
import Testing

/// The access log line records the SDK's `AP-Visitor-Identifier` and `AP-Application-Profile` (issue 39 point 5):
/// bounded and reduced to plain identifier characters, so a header cannot forge or flood a log line.
@Suite struct RequestLogSDKHeadersTests {
    @Test func theVisitorAndApplicationProfileAreLoggedBoundedAndSanitized() async throws {
        let capture = LogCapture()
        let router = Router(context: AppContext.self)
        router.add(middleware: RequestLogMiddleware(logger: capture.logger(level: .info)))
        router.get("/ping") { _, _ in "ok" }
        try await Application(router: router).test(.router) { client in
            _ = try await client.execute(
                uri: "/ping", method: .get,
                headers: [
                    HTTPField.Name("AP-Visitor-Identifier")!: "4d1b7c2a-visitor.1",
                    HTTPField.Name("AP-Application-Profile")!: "tvOS app\u{7}x=1 " + String(repeating: "p", count: 500),
                ])
            _ = try await client.execute(uri: "/ping", method: .get)
        }
        let lines = capture.all.filter { $0.contains("request") }
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first.contains("visitor=4d1b7c2a-visitor.1"))
        let profile = try #require(first.components(separatedBy: " ").first { $0.hasPrefix("app_profile=") })
        #expect(profile == "app_profile=tvOS_app_x_1_" + String(repeating: "p", count: 64 - 13), "\(profile)")
        #expect(!lines[1].contains("visitor=") && !lines[1].contains("app_profile="))
    }
}
