/// An MVPD's XACML settings (a row exists only when they are not the defaults: plain, unsigned).
package struct MVPDXACMLOptions: Codable, Sendable, Equatable {
    /// How the query travels.
    package var binding: XACMLBinding
    /// Whether the SOAP query carries an enveloped XML signature with the service's SAML SP key.
    package var signQueries: Bool

    /// The defaults: the bare request context, unsigned.
    package static let defaults = MVPDXACMLOptions(binding: .plain, signQueries: false)

    /// Creates settings.
    package init(binding: XACMLBinding, signQueries: Bool) {
        self.binding = binding
        self.signQueries = signQueries
    }
}
