import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// CORS for browser apps on DCR (`/o/client/register`, `/o/client/token`) and REST API v2 (`/api/v2/{sp}/…`), and on
/// nothing else (pages, the console, the admin API, operations, v1 and adobe-services answer as before, without a
/// single `Access-Control-*` header).
///
/// An origin is allowed when ``WebOrigins`` finds it on a registered domain: of the requestor in the path for v2, of
/// any enabled requestor for DCR (a preflight carries no body, so no software statement). Then:
/// - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered `204` with that origin
///   (never `*`), the methods and request headers v2 uses, `Access-Control-Max-Age` and `Vary: Origin`;
/// - an actual call's answer, errors included, carries `Access-Control-Allow-Origin: <origin>`,
///   `Access-Control-Expose-Headers` and `Vary: Origin`, so the page reads the Enhanced Error body too.
/// Another origin's preflight is answered `403` with no CORS header (the browser sends nothing more); another origin's
/// call is answered as without CORS, with `Vary: Origin`, and the browser keeps the answer from the page. Bearer
/// tokens, not cookies: `Access-Control-Allow-Credentials` is never sent.
package struct CORSMiddleware: RouterMiddleware {
    package typealias Context = AppContext
    package let origins: WebOrigins

    /// CORS for the origins of `origins`.
    package init(origins: WebOrigins) { self.origins = origins }

    /// The methods of DCR and REST API v2.
    package static let allowedMethods = "GET, POST, DELETE"
    /// The request headers REST API v2 and DCR read (and the SDKs send).
    package static let allowedHeaders = [
        "Authorization", "AP-Device-Identifier", "X-Device-Info", "AP-TempPass-Identity", "AP-Partner-Framework-Status", "AD-Service-Token",
        "Adobe-Subject-Token", "X-Roku-Reserved-Roku-Connect-Token", "AP-Visitor-Identifier", "AP-Application-Profile", "Content-Type", "Accept",
        "X-Forwarded-For",
    ].joined(separator: ", ")
    /// The response headers a page may read beyond the safelisted ones.
    package static let exposedHeaders = "Retry-After, Allow"
    /// How long a browser may keep a preflight's answer, seconds.
    package static let maxAge = "600"

    /// Which origins a path answers.
    package enum Scope: Equatable, Sendable {
        /// DCR: any enabled requestor's origins.
        case dcr
        /// REST API v2 of the requestor in the path.
        case api(requestor: Substring)
    }

    /// The scope of a request path; nil for every path without CORS.
    package static func scope(of path: String) -> Scope? {
        if path == "/o/client/register" || path == "/o/client/token" { return .dcr }
        guard path.utf8.starts(with: "/api/v2/".utf8) else { return nil }
        let rest = path.dropFirst("/api/v2/".count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex else { return nil }
        return .api(requestor: rest[..<slash])
    }

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        // Cheap first: most calls (apps, devices, servers) send no Origin, and most paths are not CORS paths.
        guard let originHeader = request.headers[.origin], let scope = Self.scope(of: request.uri.path) else {
            return try await next(request, context)
        }
        let allowed = await isAllowed(originHeader, scope: scope)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard allowed else { return Response(status: .forbidden, headers: [.vary: "Origin", .cacheControl: "no-store"]) }
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: originHeader, .accessControlAllowMethods: Self.allowedMethods,
                    .accessControlAllowHeaders: Self.allowedHeaders, .accessControlMaxAge: Self.maxAge, .vary: "Origin",
                ])
        }
        let added: HTTPFields =
            allowed
            ? [.accessControlAllowOrigin: originHeader, .accessControlExposeHeaders: Self.exposedHeaders, .vary: "Origin"] : [.vary: "Origin"]
        do {
            var response = try await next(request, context)
            response.headers.append(contentsOf: added)
            return response
        } catch let error as APIError {
            // Still an APIError, so that the request log names its trace.
            var headers = error.extraHeaders
            headers.append(contentsOf: added)
            throw APIError(error.body, headers: headers)
        } catch let error as any HTTPResponseError {
            throw WithHeaders(base: error, headers: added)
        }
    }

    /// Whether `header` is an origin `scope` answers.
    private func isAllowed(_ header: String, scope: Scope) async -> Bool {
        guard let origin = WebOrigin(header) else { return false }
        switch scope {
        case .dcr: return await origins.allowsForAnyRequestor(origin)
        case .api(let requestor): return await origins.allows(origin, requestor: requestor)
        }
    }

    /// An error's answer with more headers.
    struct WithHeaders: HTTPResponseError {
        let base: any HTTPResponseError
        let headers: HTTPFields
        var status: HTTPResponse.Status { base.status }

        func response(from request: Request, context: some RequestContext) throws -> Response {
            var response = try base.response(from: request, context: context)
            response.headers.append(contentsOf: headers)
            return response
        }
    }
}
