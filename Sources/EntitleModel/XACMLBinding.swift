/// How an XACML 2.0 query travels to an MVPD's PDP (notes §1.3).
package enum XACMLBinding: String, Codable, Sendable, CaseIterable {
    /// The bare request context posted as `text/xml` (Adobe's `authz-usecase.md` sample); the default.
    case plain
    /// The OLCA form: an `XACMLAuthzDecisionQuery` with the SP's issuer in a SOAP 1.1 envelope, answered by a SAML
    /// `Response` holding an `XACMLAuthzDecisionStatement`.
    case soap
}
