import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird

/// An Enhanced Error Code body thrown from a handler, answered with its status and JSON.
package struct APIError: HTTPResponseError, Sendable {
    /// The body.
    package let body: EnhancedError
    /// Extra headers (for example `Retry-After`).
    package let extraHeaders: HTTPFields

    /// Wraps an error body.
    package init(_ body: EnhancedError, headers: HTTPFields = [:]) {
        self.body = body
        extraHeaders = headers
    }

    /// The HTTP status.
    package var status: HTTPResponse.Status { .init(code: body.status) }

    /// The JSON response.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = extraHeaders
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: JSONCoding.encode(body))))
    }
}

/// The `{"error": …}` body of the DCR endpoints.
package struct OAuthError: HTTPResponseError, Sendable {
    /// The body.
    package let body: OAuthErrorBody
    /// The HTTP status.
    package let status: HTTPResponse.Status

    /// Creates an OAuth error.
    package init(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest) {
        body = OAuthErrorBody(error: error, errorDescription: description)
        self.status = status
    }

    /// The JSON response.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store", .init("Pragma")!: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(data: JSONCoding.encode(body))))
    }
}

/// JSON helpers with stable output.
package enum JSONCoding {
    /// The wire's JSON encoder: sorted keys, slashes unescaped.
    package static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    package static func encode<T: Encodable>(_ value: T) -> Data {
        (try? makeEncoder().encode(value)) ?? Data("{}".utf8)
    }

    package static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        response(json: encode(value), status: status)
    }

    /// An answer whose JSON is already written.
    package static func response(json: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(data: json)))
    }
}

/// Runs typed-throwing EntitleCore parsing, rethrowing its error as an API error.
package func apiCatching<T>(_ body: () throws(EnhancedError) -> T) throws(APIError) -> T {
    do { return try body() } catch { throw APIError(error) }
}

extension APIError {
    /// Too many attempts: 429 with `Retry-After`.
    package init(_ limit: RetryLater) {
        self.init(.tooManyRequests, headers: [.retryAfter: String(limit.seconds)])
    }

    /// The answer to an error of a domain service: an Enhanced Error Code as is, ``RetryLater`` as 429 with
    /// `Retry-After`; nil for anything else.
    package init?(domain error: any Error) {
        switch error {
        case let error as APIError: self = error
        case let error as EnhancedError: self.init(error)
        case let limit as RetryLater: self.init(limit)
        default: return nil
        }
    }
}
