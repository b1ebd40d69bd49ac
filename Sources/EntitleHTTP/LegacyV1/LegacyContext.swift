import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird

/// The request context of the REST API v1 and adobe-services routes that need no caller (the adobe-services config
/// documents): the parameters and answer format that ``LegacyEnvelopeMiddleware`` read once.
package struct V1Context: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address (see ``AppContext/remoteIP``).
    package let remoteIP: String?
    /// The call's parameters and answer format.
    package let v1: V1Request

    /// The context of a request whose parameters the parent group's ``LegacyEnvelopeMiddleware`` read.
    package init(context: AppContext) throws {
        // Only reachable when a group forgot LegacyEnvelopeMiddleware: a programming error, answered 500.
        guard let v1 = context.legacyRequest else { throw APIError(.internalServerError) }
        coreContext = context.coreContext
        remoteIP = context.remoteIP
        self.v1 = v1
    }

    /// Bodies larger than this are refused with 413.
    package var maxUploadSize: Int { 256 * 1024 }
}

/// The request context of the REST API v1 and adobe-services routes with a caller: the parameters and answer format
/// (``LegacyEnvelopeMiddleware``) and the app identity (``LegacyCallerMiddleware``), both established once before any
/// handler runs, so a handler cannot forget to check them.
package struct LegacyContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address (see ``AppContext/remoteIP``).
    package let remoteIP: String?
    /// The call's parameters and answer format.
    package let v1: V1Request
    /// Who is calling: client application (DCR token or HMAC key), requestor, device.
    package let caller: CallerIdentity

    /// The context of a request whose parameters and caller the parent group's middleware established.
    package init(context: AppContext) throws {
        // Only reachable when a group forgot a middleware: a programming error, answered 500.
        guard let v1 = context.legacyRequest, let caller = context.caller else { throw APIError(.internalServerError) }
        coreContext = context.coreContext
        remoteIP = context.remoteIP
        self.v1 = v1
        self.caller = caller
    }

    /// Bodies larger than this are refused with 413.
    package var maxUploadSize: Int { 256 * 1024 }
}
