import EntitleCore
import Hummingbird
import Logging

/// Turns every failure into an Enhanced Error Code body: the errors of the domain services (``APIError/init(domain:)``), unknown routes, wrong methods, oversized or malformed
/// bodies, and unexpected errors (logged, answered as `internal_server_error` without internals).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
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
            case .notFound: throw APIError(routes.knowsPath(request.uri.path) ? .invalidHTTPMethod : .notFound)
            case .methodNotAllowed: throw APIError(.invalidHTTPMethod)
            case .contentTooLarge: throw APIError(.payloadTooLarge)
            case .badRequest: throw APIError(EnhancedError.invalidRequest.with(details: error.body))
            default:
                throw APIError(
                    EnhancedError(
                        action: "none", status: Int(error.status.code), code: "http_error",
                        message: error.body ?? error.status.reasonPhrase))
            }
        } catch is DecodingError {
            throw APIError(EnhancedError.invalidRequest.with(details: "The request body could not be decoded."))
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("unexpected failure", metadata: ["error.type": "\(type(of: error))", "path": "\(request.uri.path.logEscaped)"])
            throw APIError(.internalServerError)
        }
    }
}
