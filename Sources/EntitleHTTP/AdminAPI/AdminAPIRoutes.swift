import EntitleCore
import EntitleDomain
import Foundation
import Hummingbird
import NIOFoundationCompat

/// A type that adds routes to the admin API (``AdminAPIController`` and one type per area, such as
/// ``AdminCatalogRoutes`` and ``AdminKeyRoutes``, each on the same router group): its handlers answer JSON and read
/// JSON bodies in one way, with the same `invalid_request` answer for a body that is not as documented.
package protocol AdminAPIRoutes {}

extension AdminAPIRoutes {
    /// A JSON answer with sorted keys, never cached.
    package static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        JSONCoding.response(value, status: status)
    }

    /// The request's JSON body as `T`; a malformed body is a 400 `invalid_request` naming the problem.
    package static func decode<T: Decodable, Context: RequestContext>(_ type: T.Type, _ request: Request, context: Context) async throws -> T {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        do { return try JSONDecoder().decode(T.self, from: Data(buffer: body)) } catch let error as DecodingError {
            throw AdminAPIError.make(400, "invalid_request", "The JSON body is not as documented: \(Self.describe(error))")
        } catch {
            throw AdminAPIError.make(400, "invalid_request", "The body is not JSON.")
        }
    }

    /// The request's JSON body as `T`, or nil when there is none.
    package static func decodeOptional<T: Decodable>(_ type: T.Type, _ request: Request, context: AdminContext) async throws -> T? {
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        guard body.readableBytes > 0 else { return nil }
        return try await decode(T.self, request, context: context)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): return "missing \(key.stringValue)"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "wrong type at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty ? "not JSON" : "bad value at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        @unknown default: return "not readable"
        }
    }
}
