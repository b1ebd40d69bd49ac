import EntitleCore
import EntitleDomain
import EntitleModel
import HTTPTypes
import Hummingbird

/// Authenticates the caller of every route of a protected group once — the access token for the service provider of
/// the path (`:sp`) and the device headers — and puts it into the context; a call without a valid caller is answered
/// with the Enhanced Error that says why, before any handler runs.
package struct CallerMiddleware: RouterMiddleware {
    package let authenticator: CallerAuthenticator

    package func handle(_ request: Request, context: AppContext, next: @concurrent (Request, AppContext) async throws -> Response) async throws
        -> Response
    {
        let query = request.uri.queryParameters
        // The three headers in one pass over the fields.
        let (authorization, deviceIdentifier, deviceInfo) = request.headers.combinedValues(.authorization, .deviceIdentifier, .deviceInfo)
        var credentials = CallerAuthenticator.Credentials(
            authorization: authorization, accessTokenParameter: query["access_token"].map(String.init), deviceIdentifier: deviceIdentifier,
            deviceInfo: deviceInfo ?? query["device_info"].map(String.init))
        credentials.userAgent = request.headers[.userAgent]
        credentials.applicationProfile = request.headers.combinedValue(.applicationProfile)
        credentials.visitorIdentifier = request.headers.combinedValue(.visitorIdentifier)
        var context = context
        context.caller = try await authenticator.caller(credentials, serviceProvider: try context.parameters.require("sp"))
        return try await next(request, context)
    }

    /// Creates the value from each of its stored properties.
    package init(authenticator: CallerAuthenticator) {
        self.authenticator = authenticator
    }
}

extension HTTPField.Name {
    /// `AP-Device-Identifier`.
    package static let deviceIdentifier = Self("AP-Device-Identifier")!
    /// `X-Device-Info`.
    package static let deviceInfo = Self("X-Device-Info")!
    /// `AP-TempPass-Identity`.
    package static let tempPassIdentity = Self("AP-TempPass-Identity")!
    /// `Retry-After`.
    package static let retryAfter = Self("Retry-After")!
    /// `AP-Application-Profile`: the application profile the SDK sends with every call.
    package static let applicationProfile = Self("AP-Application-Profile")!
    /// `AP-Visitor-Identifier`: the visitor (Adobe's Experience Cloud ID) the SDK sends with every call.
    package static let visitorIdentifier = Self("AP-Visitor-Identifier")!
}
