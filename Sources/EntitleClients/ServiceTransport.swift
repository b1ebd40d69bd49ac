import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// How ``RESTClient`` and ``BrowserClient`` reach the service: one `send`. Over a socket with AsyncHTTPClient
/// (``httpClient(_:)``), or in process (the test harness sends to Hummingbird's router test client).
package struct ServiceTransport: Sendable {
    /// A request with an absolute URL.
    package struct Request: Sendable {
        /// The method.
        package var method: HTTPMethod
        /// The absolute URL.
        package var url: String
        /// The headers.
        package var headers: HTTPHeaders
        /// The body, if any.
        package var body: Data?

        /// Creates a request.
        package init(method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: Data? = nil) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    private let exchange: @Sendable (Request) async throws -> RESTClient.Answer

    /// A transport that answers requests with `exchange`.
    package init(_ exchange: @escaping @Sendable (Request) async throws -> RESTClient.Answer) { self.exchange = exchange }

    /// Sends a request and returns the whole answer.
    package func send(_ request: Request) async throws -> RESTClient.Answer { try await exchange(request) }

    /// How long a client waits for one answer before it gives up (the tests' `AnswerPatience` too).
    package static let answerTimeoutSeconds: Int64 = 120

    /// Real HTTP with `client` (which must not follow redirects when a ``BrowserClient`` uses it); bodies up to 8 MB.
    package static func httpClient(_ client: HTTPClient) -> ServiceTransport {
        ServiceTransport { request in
            var outgoing = HTTPClientRequest(url: request.url)
            outgoing.method = request.method
            outgoing.headers = request.headers
            if let body = request.body { outgoing.body = .bytes(ByteBuffer(data: body)) }
            let response = try await client.execute(outgoing, timeout: .seconds(answerTimeoutSeconds))
            let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
            return RESTClient.Answer(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
        }
    }
}
