/// The per-MVPD options an authorization decision reads: SAML options (authorize-all, SHA-1), XACML binding and signing,
/// and the integration's preflight settings. ``MVPDOptionsStore`` on SQL, ``InMemoryMVPDOptionsStore`` in unit tests.
package protocol MVPDOptionsReading: Sendable {
    /// The SAML settings of an MVPD (nil when none were stored: defaults apply).
    func samlOptions(mvpd: String) async throws -> MVPDSAMLOptionsRecord?
    /// The XACML settings of an MVPD (the defaults unless configured).
    func xacmlOptions(mvpd: String) async throws -> MVPDXACMLOptions
    /// The most resources one preflight call to the MVPD asks about for (requestor, MVPD), or nil: no multi-channel preflight.
    func preflightMaxResources(requestor: String, mvpd: String) async throws -> Int64?
    /// The SAML attribute carrying the channel lineup for (requestor, MVPD), or nil: no preflight by lineup.
    func preflightLineupAttribute(requestor: String, mvpd: String) async throws -> String?
    /// What (requestor, MVPD) does with home-based sign-ins, or nil: they are treated as any other.
    func hbaPolicy(requestor: String, mvpd: String) async throws -> HBAPolicy?
    /// The HTTP-POST SingleSignOnService location of a SAML MVPD that has one (the AuthnRequest is then posted).
    func ssoPostLocation(mvpd: String) async throws -> String?
}
