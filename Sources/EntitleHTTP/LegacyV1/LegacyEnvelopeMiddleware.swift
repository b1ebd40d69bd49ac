import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird

/// The envelope of REST API v1 and adobe-services: reads a call's parameters (query, and the form body of POST, PUT
/// and DELETE) and its answer format once into the context, and is the one place where the failures of these
/// protocols' handlers become answers: a v1 error document (XML or JSON, with the Enhanced Error Code fields) with its
/// status, or adobe-services' `<pendingLogout>` for a token whose sign-in ended elsewhere. Failures before the route
/// group (throttling, unknown routes and methods) are rendered in the same document by ``ErrorMiddleware``.
package struct LegacyEnvelopeMiddleware: RouterMiddleware {
    /// The answer format: nil for REST v1 (negotiated from `format` and `Accept`), fixed for adobe-services.
    package let format: V1Format?

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        var parameters = FormBody.query(of: request)
        var answerFormat = format ?? V1Format.negotiate(format: parameters["format"], accept: request.headers[.accept])
        do {
            var body = ""
            if request.method == .post || request.method == .delete || request.method == .put {
                body = try await FormBody.text(of: request, context: context)
                if !body.isEmpty { parameters.merge(FormURLEncoding.parse(body)) { $1 } }
                answerFormat = format ?? V1Format.negotiate(format: parameters["format"], accept: request.headers[.accept])
            }
            if format == nil, let asked = parameters["format"], !asked.isEmpty, V1Format(rawValue: asked.lowercased()) == nil {
                throw APIError(.v1(400, "invalid_request", "The format parameter must be xml or json."))
            }
            var context = context
            context.legacyRequest = V1Request(request: request, parameters: parameters, format: answerFormat, body: body)
            return try await next(request, context)
        } catch let pending as AdobePendingLogout {
            return pending.response
        } catch {
            guard let answer = APIError(domain: error) else { throw error }
            return answer.body.v1Document.response(answerFormat, status: .init(code: answer.body.status), headers: answer.extraHeaders)
        }
    }

    /// Creates the value from each of its stored properties.
    package init(format: V1Format?) {
        self.format = format
    }
}

/// Establishes the app identity of a REST API v1 or adobe-services call once, for the requestor of the path
/// (`:requestor`) or of the `requestor` / `requestor_id` parameter, and puts it into the context; a call without a
/// valid caller is answered with the v1 error that says why, before any handler runs.
package struct LegacyCallerMiddleware: RouterMiddleware {
    package let authenticator: LegacyCallerAuthenticator
    /// Whether the call must name its device (`deviceId`).
    package let needsDevice: Bool
    /// adobe-services: a call without an app credential may prove its caller with the token it carries (yt-dlp's
    /// resumed run); nil where only app credentials count (REST v1).
    package let tokenCredentials: AdobeTokenCredentials?

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        guard let v1 = context.legacyRequest else { throw APIError(.internalServerError) }
        let requestorID = try context.parameters.get("requestor") ?? v1.requestorID()
        var context = context
        if let tokenCredentials, !AdobeTokenCredentials.sendsAppCredential(v1),
            let caller = try await tokenCredentials.caller(v1, requestorID: requestorID)
        {
            context.caller = caller
            return try await next(request, context)
        }
        // The client family, for the reports: the protocol of the path.
        let client = request.uri.path.hasPrefix("/adobe-services") ? ReportClient.adobeServices : ReportClient.restV1
        context.caller = try await authenticator.caller(v1, requestorID: requestorID, needsDevice: needsDevice, client: client)
        return try await next(request, context)
    }

    /// Creates the value from each of its stored properties.
    package init(authenticator: LegacyCallerAuthenticator, needsDevice: Bool, tokenCredentials: AdobeTokenCredentials? = nil) {
        self.authenticator = authenticator
        self.needsDevice = needsDevice
        self.tokenCredentials = tokenCredentials
    }
}
