import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Hummingbird
import NIOCore

/// Reading request bodies and parameters (decoded with ``FormURLEncoding``).
package enum FormBody {
    /// Collects the body as UTF-8 text, refusing bodies over `limit` bytes (a body the HTTP/1.1 decoder rejects is
    /// the error middleware's 400).
    package static func text(of request: Request, context: some RequestContext, limit: Int = 64 * 1024) async throws -> String {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return String(buffer: buffer)
        } catch  where isTooLarge(error) {
            throw APIError(.payloadTooLarge)
        }
    }

    /// Whether `error` says a body was longer than the limit it was collected with (NIOCore's `collect(upTo:)` throws
    /// `NIOTooManyBytesError`, Hummingbird's decoding a 413 `HTTPError`), not that it could not be read.
    package static func isTooLarge(_ error: any Error) -> Bool {
        error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge
    }

    /// The form fields of a request body (any content type is read as a form).
    package static func fields(of request: Request, context: some RequestContext) async throws -> [String: String] {
        FormURLEncoding.parse(try await text(of: request, context: context))
    }

    /// The query parameters of a request.
    package static func query(of request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { result[String(key)] = String(value) }
        return result
    }
}
