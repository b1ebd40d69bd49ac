import AsyncHTTPClient
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import TestLogCapture
import Testing

/// The trusted-proxy setting through the real service on a real socket: the forwarding headers of a trusted peer name
/// the client in the request log and make the activation page's cookie `Secure`; from an untrusted peer the same
/// headers change nothing.
@Suite struct TrustedProxyFlowTests {
    static let forwarded = [("X-Forwarded-For", "1.2.3.4, 198.51.100.7"), ("X-Forwarded-Proto", "https")]

    /// GETs `/activate` from 127.0.0.1 with the forwarding headers on a service trusting `trusted`; returns its
    /// `Set-Cookie` and the `client` its request log line names.
    static func activate(trusting trusted: [IPAddressRange]) async throws -> (cookie: String, client: String?) {
        let capture = LogCapture()
        let logger = capture.logger(label: "entitle.test.proxy", level: .info)
        var configuration = HostConfiguration()
        configuration.dataDirectory = NSTemporaryDirectory() + "entitle-proxy-" + UUID().uuidString
        configuration.port = try freePort()
        configuration.demo = false
        configuration.rateLimitPerSecond = 0
        configuration.trustedProxies = trusted
        defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }
        var cookie = ""
        try await EntitleHost.serveOnce(configuration: configuration, logger: logger, clock: SystemClock()) { host in
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                var request = HTTPClientRequest(url: host.configuration.baseURL + "/activate")
                for (name, value) in Self.forwarded { request.headers.add(name: name, value: value) }
                let response = try await client.execute(request, timeout: AnswerPatience.timeAmount)
                #expect(response.status == .ok)
                cookie = response.headers["Set-Cookie"].joined(separator: "; ")
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
        let line = capture.all.first { $0.contains("route=/activate") }
        let client = line?.split(separator: " ").first { $0.hasPrefix("client=") }.map { String($0.dropFirst("client=".count)) }
        return (cookie, client)
    }

    @Test func aTrustedProxyNamesTheClientAndTheScheme() async throws {
        let (cookie, client) = try await Self.activate(trusting: [try #require(IPAddressRange("127.0.0.0/8"))])
        #expect(client == "198.51.100.7", "the client a trusted proxy named (the right-most untrusted hop)")
        #expect(cookie.contains("entitle_csrf=") && cookie.contains("Secure"), "\(cookie)")
    }

    @Test func theSameHeadersFromAnUntrustedPeerChangeNothing() async throws {
        let (cookie, client) = try await Self.activate(trusting: [try #require(IPAddressRange("10.0.0.0/8"))])
        #expect(client == "127.0.0.1")
        #expect(cookie.contains("entitle_csrf=") && !cookie.contains("Secure"), "\(cookie)")
    }
}
