import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One structured log line per request, at `info`: `method`, `route` (the matched route template, so codes and ids in
/// the path stay out of the log), `status`, `duration_ms`, `requestor`, `mvpd` and `trace` (the `trace` of the
/// Enhanced Error body when the request failed, so an operator finds the line of an error a client reports; else
/// the caller's `X-Request-Id`, else a fresh id) and `client` (the client address, through trusted proxies; for a
/// server-to-server client the device address its call names, with the backend's as `peer`), and `visitor` /
/// `app_profile` (the SDK's `AP-Visitor-Identifier` / `AP-Application-Profile`, as ``safe(_:)`` identifiers). Headers, query strings and bodies — tokens, secrets, codes,
/// passwords — are never logged.
package struct RequestLogMiddleware: RouterMiddleware {
    package typealias Context = AppContext
    /// Where the lines go.
    package let logger: Logger

    /// Logs to `logger`.
    package init(logger: Logger) { self.logger = logger }

    /// Logs the request after it was answered (or failed).
    package func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: Int(response.status.code), trace: nil, since: start)
            return response
        } catch let error as APIError {
            log(request, context: context, status: error.body.status, trace: error.body.trace, since: start)
            throw error
        } catch let error as any HTTPResponseError {
            log(request, context: context, status: Int(error.status.code), trace: nil, since: start)
            throw error
        } catch {
            log(request, context: context, status: 500, trace: nil, since: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, trace: String?, since start: ContinuousClock.Instant) {
        guard logger.logLevel <= .info else { return }  // nothing to build when the line would be dropped
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let query = request.uri.queryParameters
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)",
            "route": "\(context.endpointPath ?? "unmatched")",
            "status": "\(status)",
            "duration_ms": "\(String(format: "%.1f", milliseconds))",
            "trace": "\(trace ?? Self.requestID(request) ?? UUID().uuidString.lowercased())",
        ]
        if let requestor = context.parameters.get("sp") ?? query["requestor_id"].map(String.init) ?? query["requestor"].map(String.init) {
            metadata["requestor"] = "\(Self.safe(requestor))"
        }
        if let mvpd = context.parameters.get("mvpd") ?? query["mso_id"].map(String.init) ?? query["mvpd"].map(String.init) {
            metadata["mvpd"] = "\(Self.safe(mvpd))"
        }
        // The SDK's visitor and application-profile headers (Adobe's analytics dimensions), bounded and sanitized.
        if let visitor = request.headers[.visitorIdentifier] { metadata["visitor"] = "\(Self.safe(visitor))" }
        if let profile = request.headers[.applicationProfile] { metadata["app_profile"] = "\(Self.safe(profile))" }
        if let device = context.forwardedDevice, device.isAccepted {
            // A server-to-server client's call: the device it names, and the backend that made the call.
            metadata["client"] = "\(device.address)"
            if let peer = context.remoteIP { metadata["peer"] = "\(peer)" }
        } else if let client = context.remoteIP {
            metadata["client"] = "\(client)"
        }
        logger.info("request", metadata: metadata)
    }

    /// The caller's request id, when it is a short plain token.
    package static func requestID(_ request: Request) -> String? {
        guard let value = request.headers[HTTPField.Name("X-Request-Id")!], value.count <= 64 else { return nil }
        return safe(value)
    }

    /// An identifier as logged: at most 64 characters of `[A-Za-z0-9._-]`.
    package static func safe(_ value: String) -> String {
        String(value.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
