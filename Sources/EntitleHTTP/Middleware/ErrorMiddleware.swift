import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Turns every failure into an Enhanced Error Code body: the errors of the domain services (``APIError/init(domain:)``), unknown routes, wrong methods, oversized or malformed
/// bodies (undecodable, or with broken HTTP/1.1 framing), and unexpected errors (logged, answered as `internal_server_error` without internals).
package struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package let routes: RouteTable

    package func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await translate(request, context: context, next: next)
        } catch let error as APIError {
            // REST v1 and adobe-services clients get their own error document (throttling, unknown methods, …).
            if let format = V1Format.legacy(request) {
                return error.body.v1Document.response(format, status: .init(code: error.body.status), headers: error.extraHeaders)
            }
            throw error
        }
    }

    private func translate(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as EnhancedError {
            throw APIError(error)
        } catch let limit as RetryLater {
            throw APIError(limit)
        } catch let error as OAuthError {
            throw error
        } catch let error as HTTPError {
            switch error.status {
            case .notFound, .methodNotAllowed:
                let allowed = routes.methods(forPath: request.uri.path)
                guard !allowed.isEmpty else { throw APIError(.notFound) }
                throw APIError(.invalidHTTPMethod, headers: [.allow: allowed.joined(separator: ", ")])
            case .contentTooLarge: throw APIError(.payloadTooLarge)
            case .badRequest: throw APIError(EnhancedError.invalidRequest.with(details: error.body))
            default:
                throw APIError(
                    EnhancedError(
                        action: "none", status: Int(error.status.code), code: "http_error",
                        message: error.body ?? error.status.reasonPhrase))
            }
        } catch is NIOTooManyBytesError {
            // A route's own size limit (`collect(upTo:)`), where the route did not answer it itself.
            throw APIError(.payloadTooLarge)
        } catch is HTTPParserError {
            // A body the HTTP/1.1 decoder rejected while a route read it (a client's error, not ours).
            throw APIError(EnhancedError.invalidRequest.with(details: NULRefusalMiddleware.malformedBody), headers: [.connection: "close"])
        } catch is DecodingError {
            throw APIError(EnhancedError.invalidRequest.with(details: "The request body could not be decoded."))
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("unexpected failure", metadata: ["error.type": "\(type(of: error))", "path": "\(request.uri.path.logEscaped)"])
            throw APIError(.internalServerError)
        }
    }

    /// Creates the value from each of its stored properties.
    package init(routes: RouteTable) {
        self.routes = routes
    }
}
