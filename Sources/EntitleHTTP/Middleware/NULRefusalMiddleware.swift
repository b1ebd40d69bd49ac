import EntitleCore
import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Refuses, before any handler runs, a request whose path, query or body carries text no database column can hold: the
/// NUL character, raw or encoded (`%00` in a URL or form, `\u0000` in JSON). PostgreSQL refuses NUL in `text`, SQLite
/// truncates at it; every other character a client can send arrives as valid UTF-8 and is storable. The refusal is
/// each protocol's own 400: an Enhanced Error body on REST v2, a v1 document (XML or JSON as negotiated) on REST v1 and
/// adobe-services, an OAuth error on the token endpoint. A body the HTTP/1.1 decoder rejects while it is read here (a
/// malformed chunk size, say) gets the same 400, and the connection is closed.
package struct NULRefusalMiddleware: RouterMiddleware {
    package typealias Context = AppContext

    /// The plain page of a refused page request.
    package let pages: Pages

    package init(pages: Pages) { self.pages = pages }

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        // The DemoMVPD keeps its users in memory and answers bad input itself.
        if request.uri.path.hasPrefix("/demo-mvpd/") { return try await next(request, context) }
        var request = request
        let uri = request.uri.description
        var unstorable = uri.utf8.withContiguousStorageIfAvailable { Self.containsNUL($0) } ?? Self.containsNUL(Array(uri.utf8))
        if !unstorable, Self.mayHaveBody(request), !Self.isDecisions(request), !Self.declaredTooLarge(request, limit: context.maxUploadSize) {
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: context.maxUploadSize) } catch is HTTPParserError {
                var answer = try refusal(for: request, context: context, explaining: Self.malformedBody)
                answer.headers[.connection] = "close"  // the framing is broken: the next request cannot be found
                return answer
            }
            unstorable =
                body.readableBytesView.withContiguousStorageIfAvailable { Self.containsNUL($0) }
                ?? Self.containsNUL(Array(body.readableBytesView))
        }
        guard unstorable else { return try await next(request, context) }
        return try refusal(for: request, context: context)
    }

    /// Routes a browser opens, the operators' console among them: their errors are pages.
    package static func isPage(_ path: String) -> Bool {
        path == "/" || path == "/authenticated" || path == "/activate" || path.hasPrefix("/activate/") || path.hasPrefix("/sp/saml/")
            || path.hasPrefix("/api/v2/authenticate/") || path.hasPrefix("/adobe-services/authenticate/")
            || path == "/adobe-services/logout" || path == "/api/v1/authenticate" || path == "/console" || path.hasPrefix("/console/")
    }

    package static func mayHaveBody(_ request: Request) -> Bool {
        request.method == .post || request.method == .put || request.method == .patch || request.method == .delete
    }

    /// REST v2 decisions: their resources never reach a query and are judged one by one (a NUL in one is that item's
    /// `invalid_parameter_resources`, the others are still decided).
    package static func isDecisions(_ request: Request) -> Bool { isDecisions(path: request.uri.path) }

    /// Whether `path` is `/api/v2/{sp}/decisions` or below it, read over its contiguous UTF-8 bytes (it runs on every
    /// decision, so it avoids the generic `starts(with:)` over `String.UTF8View`).
    package static func isDecisions(path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.starts(with: apiPrefix), let slash = bytes[apiPrefix.count...].firstIndex(of: UInt8(ascii: "/")) else {
                return false
            }
            let section = bytes[(slash + 1)...]
            guard section.starts(with: decisionsSection) else { return false }
            let after = slash + 1 + decisionsSection.count
            return after == bytes.count || bytes[after] == UInt8(ascii: "/")
        }
    }

    private static let apiPrefix = Array("/api/v2/".utf8)
    private static let decisionsSection = Array("decisions".utf8)

    package static func declaredTooLarge(_ request: Request, limit: Int) -> Bool {
        guard let length = request.headers.combinedValue(.contentLength).flatMap({ Int($0) }) else { return false }
        return length > limit
    }

    /// Whether `bytes` hold a NUL: the byte itself, `%00`, or the JSON escape `\u0000`.
    package static func containsNUL<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        let zero = UInt8(ascii: "0")
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0: return true
            case UInt8(ascii: "%"):
                if index + 2 < bytes.endIndex, bytes[index + 1] == zero, bytes[index + 2] == zero { return true }
            case UInt8(ascii: "\\"):
                if index + 5 < bytes.endIndex, bytes[index + 1] | 0x20 == UInt8(ascii: "u"),
                    bytes[index + 2] == zero, bytes[index + 3] == zero, bytes[index + 4] == zero, bytes[index + 5] == zero
                {
                    return true
                }
            default: break
            }
            index += 1
        }
        return false
    }

    package static let explanation = "A parameter holds a NUL character (%00), which no identifier or text may contain."
    /// Why a body whose HTTP/1.1 framing (chunk sizes, length) the decoder rejected is refused.
    package static let malformedBody = "The request body is not valid HTTP/1.1: its chunked encoding or length is malformed."

    /// The protocol's 400 for the route the request was meant for, giving `reason`.
    package func refusal(for request: Request, context: AppContext, explaining reason: String = Self.explanation) throws -> Response {
        if Self.isPage(request.uri.path) {
            return pages.plainMessage(title: "This link is not valid", message: reason, status: .badRequest)
        }
        let error = EnhancedError.invalidRequest.with(details: reason)
        if let format = V1Format.legacy(request) { return error.v1Document.response(format, status: .badRequest) }
        if request.uri.path.hasPrefix("/o/client/") {
            return try OAuthError("invalid_request", reason).response(from: request, context: context)
        }
        return try APIError(error).response(from: request, context: context)
    }
}
