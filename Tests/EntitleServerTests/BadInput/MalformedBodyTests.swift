import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// A request body whose HTTP/1.1 framing is broken (a chunk size that is not hexadecimal) is the client's error: each
/// protocol's 400 with its own error body, and the connection closed — never a 500 or an error in the log. Real
/// service, raw socket (an HTTP client library would not send such a body).
@Suite struct MalformedBodyTests {
    static func answer(to head: String, port: Int) async throws -> (text: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        connection.sendAll(head + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"sof\r\nzz\r\n")
        let (data, closed) = await connection.readUntilClosed(timeout: 20)
        return (String(decoding: data, as: UTF8.self), closed)
    }

    @Test func brokenChunkedFramingIsEachProtocolsBadRequest() async throws {
        try await LocalService.run { host in
            let port = try #require(URLComponents(string: host.baseURL)?.port)
            // A decision reads its body in the route, after the caller is known (the error middleware's 400).
            let tv = try await host.client()
            var device = "X-Device-Info: \(tv.deviceInfo.headerValue())\r\nAuthorization: Bearer \(try #require(tv.accessToken))\r\n"
            if let identifier = DeviceIdentifier(rawValue: tv.deviceID) { device += "AP-Device-Identifier: \(identifier.headerValue)\r\n" }
            let json = "Host: x\r\nContent-Type: application/json\r\n"
            let cases: [(label: String, head: String, body: String)] = [
                ("DCR register (OAuth)", "POST /o/client/register HTTP/1.1\r\n" + json, #""error":"invalid_request""#),
                ("REST v2 (Enhanced Error)", "POST /api/v2/REF/sessions/DemoCable HTTP/1.1\r\n" + json, #""code":"invalid_request""#),
                ("REST v2 decision", "POST /api/v2/REF/decisions/preauthorize/DemoCable HTTP/1.1\r\n" + json + device, #""code":"invalid_request""#),
                ("REST v1 (XML error)", "POST /reggie/v1/REF/regcode?format=xml HTTP/1.1\r\nHost: x\r\n", "<code>invalid_request</code>"),
            ]
            for (label, head, body) in cases {
                let (text, closed) = try await Self.answer(to: head, port: port)
                #expect(text.hasPrefix("HTTP/1.1 400"), "\(label): \(text.prefix(300))")
                #expect(text.contains(body), "\(label): \(text.prefix(600))")
                #expect(text.contains("malformed"), "\(label): the answer does not say what is wrong")
                #expect(text.lowercased().contains("connection: close"), "\(label): \(text.prefix(300))")
                #expect(closed, "\(label): the connection stays open")
            }
        }
    }

    /// A chunked body (no length announced) over the upload limit: 413 with the documented error body, not an empty 413.
    @Test func aChunkedBodyOverTheLimitIsPayloadTooLargeWithItsErrorBody() async throws {
        try await LocalService.run { host in
            let port = try #require(URLComponents(string: host.baseURL)?.port)
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            let chunk = String(repeating: "a", count: 32 * 1024)
            let chunks = String(repeating: "8000\r\n" + chunk + "\r\n", count: 10)  // 320 KiB, over the 256 KiB limit
            connection.sendAll(
                "POST /api/v2/REF/sessions/DemoCable HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n")
            // Ends when the service closes the connection; the bound only matters on failure (the whole suite on two cores
            // once took longer than 5 s to answer).
            let (data, _) = await connection.readUntilClosed(timeout: 60)
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(300))")
            #expect(text.contains(#""code":"payload_too_large""#), "\(text.prefix(600))")
        }
    }
}
