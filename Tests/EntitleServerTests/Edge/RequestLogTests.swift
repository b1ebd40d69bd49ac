import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import TestLogCapture
import Testing

/// The operator's log: one structured line per request, and never a secret.
@Suite struct RequestLogTests {
    @Test func everyRequestLeavesOneLineWithoutSecrets() async throws {
        let capture = LogCapture()
        let logger = capture.logger(label: "entitle.test.requests", level: .info)
        var configuration = HostConfiguration()
        configuration.dataDirectory = NSTemporaryDirectory() + "entitle-log-" + UUID().uuidString
        configuration.rateLimitPerSecond = 0
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        let host = try await EntitleHost.prepare(configuration: configuration, logger: logger, clock: ManualClock())
        let statement = try #require(host.demoInfo?.softwareStatement)
        let app = RouterService.makeApplication(host)
        let deviceInfo = Data(#"{"model":"test","osName":"Linux"}"#.utf8).base64EncodedString()
        let device = "fingerprint " + Data("log-device".utf8).base64EncodedString()
        try await app.test(.router) { client in
            var secrets: [String] = [statement]
            let registered = try await client.execute(
                uri: "/o/client/register", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("X-Device-Info")!: deviceInfo],
                body: ByteBuffer(string: #"{"software_statement":"\#(statement)","redirect_uri":"adobepass://ios.app"}"#))
            let registration = try JSONDecoder().decode(ClientRegistration.self, from: Data(buffer: registered.body))
            secrets.append(registration.clientSecret)
            let tokenAnswer = try await client.execute(
                uri: "/o/client/token", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Device-Info")!: deviceInfo],
                body: ByteBuffer(
                    string: "client_id=\(registration.clientID)&client_secret=\(registration.clientSecret)&grant_type=client_credentials"))
            let token = try JSONDecoder().decode(AccessTokenResponse.self, from: Data(buffer: tokenAnswer.body)).accessToken
            secrets.append(token)
            let headers: HTTPFields = [
                .authorization: "Bearer \(token)", HTTPField.Name("AP-Device-Identifier")!: device,
                HTTPField.Name("X-Device-Info")!: deviceInfo, .contentType: "application/x-www-form-urlencoded",
            ]
            let session = try await client.execute(
                uri: "/api/v2/REF/sessions", method: .post, headers: headers,
                body: ByteBuffer(string: "mvpd=DemoCable&redirectUrl=adobepass://ios.app"))
            let code = try #require(try JSONDecoder().decode(SessionResponse.self, from: Data(buffer: session.body)).code)
            secrets.append(code)
            let denied = try await client.execute(
                uri: "/api/v2/REF/decisions/authorize/DemoCable", method: .post,
                headers: headers.merging([.contentType: "application/json"]),
                body: ByteBuffer(string: #"{"resources":["news"]}"#))
            #expect(denied.status.code >= 400)
            let trace = try JSONDecoder().decode(EnhancedError.self, from: Data(buffer: denied.body)).trace
            _ = try await client.execute(
                uri: "/api/v2/REF/configuration?access_token=\(token)", method: .get,
                headers: [HTTPField.Name("AP-Device-Identifier")!: device])

            let lines = capture.all.filter { $0.hasPrefix("info request ") }
            #expect(lines.count == 5, "\(lines)")
            for line in lines {
                for key in ["method=", "route=", "status=", "duration_ms=", "trace="] { #expect(line.contains(key), "\(line)") }
                for secret in secrets { #expect(!line.contains(secret), "a secret in \(line)") }
            }
            #expect(lines[0].contains("method=POST") && lines[0].contains("route=/o/client/register") && lines[0].contains("status=201"))
            #expect(lines[2].contains("route=/api/v2/{sp}/sessions") && lines[2].contains("requestor=REF"))
            #expect(
                lines[3].contains("route=/api/v2/{sp}/decisions/authorize/{mvpd}") && lines[3].contains("mvpd=DemoCable")
                    && lines[3].contains("trace=\(trace)"), "\(lines[3])")
            #expect(lines[4].contains("route=/api/v2/{sp}/configuration") && lines[4].contains("status=200"))
        }
        await host.shutdown()
    }
}

private extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
