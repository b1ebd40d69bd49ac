import EntitleCore
import Foundation
import Hummingbird
import NIOCore

/// Reading request bodies and parameters (decoded with ``FormURLEncoding``).
enum FormBody {
    /// Collects the body as UTF-8 text, refusing bodies over `limit` bytes (a body the HTTP/1.1 decoder rejects is
    /// the error middleware's 400).
    static func text(of request: Request, context: some RequestContext, limit: Int = 64 * 1024) async throws -> String {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return String(buffer: buffer)
        } catch is NIOTooManyBytesError {
            throw APIError(.payloadTooLarge)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.payloadTooLarge)
        }
    }

    /// The form fields of a request body (any content type is read as a form).
    static func fields(of request: Request, context: some RequestContext) async throws -> [String: String] {
        FormURLEncoding.parse(try await text(of: request, context: context))
    }

    /// The query parameters of a request.
    static func query(of request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { result[String(key)] = String(value) }
        return result
    }
}
