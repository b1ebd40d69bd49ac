import EntitleCore
import EntitleModel
import EntitleStorage

/// How an MVPD is asked for authorization — protocol, XACML binding and signing — to change; nil leaves one as it is.
package struct AuthorizationSettings: Sendable, Equatable {
    /// The protocol.
    package var authorizationProtocol: MVPDAuthorizationProtocol?
    /// How XACML travels.
    package var xacmlBinding: XACMLBinding?
    /// Whether SOAP queries are signed.
    package var signQueries: Bool?

    /// Creates settings.
    package init(authorizationProtocol: MVPDAuthorizationProtocol? = nil, xacmlBinding: XACMLBinding? = nil, signQueries: Bool? = nil) {
        self.authorizationProtocol = authorizationProtocol
        self.xacmlBinding = xacmlBinding
        self.signQueries = signQueries
    }

    /// Whether nothing changes.
    package var isEmpty: Bool { self == AuthorizationSettings() }
}
