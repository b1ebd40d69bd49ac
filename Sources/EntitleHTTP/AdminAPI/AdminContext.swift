import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird

/// The request context of the admin API's authenticated routes: the operator that ``AdminAuthMiddleware`` established
/// is always there.
package struct AdminContext: ChildRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address (see ``AppContext/remoteIP``).
    package let remoteIP: String?
    /// Whether the client reached the service over HTTPS through a trusted proxy.
    package let forwardedHTTPS: Bool
    /// The signed-in operator.
    package let operatorIdentity: OperatorIdentity

    /// The context of a request whose operator the parent group's middleware established.
    package init(context: AppContext) throws {
        guard let identity = context.adminOperator else { throw APIError(.internalServerError) }
        coreContext = context.coreContext
        remoteIP = context.remoteIP
        forwardedHTTPS = context.forwardedHTTPS
        operatorIdentity = identity
    }

    /// Bodies larger than this are refused with 413 (SAML metadata can be large).
    package var maxUploadSize: Int { 1024 * 1024 }
}
