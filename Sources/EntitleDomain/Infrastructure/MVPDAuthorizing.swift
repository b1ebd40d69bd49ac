import EntitleModel
import EntitleStorage

/// The MVPD's side of an authorization decision: asking its authorization endpoint about one resource, or about several
/// in one preflight call. ``MVPDAuthorizationClient`` asks over HTTP (Entitle's JSON, XACML 2.0 plain or SOAP, the REST
/// form); a unit test of ``DecisionService`` gives the MVPD's answers without a network.
package protocol MVPDAuthorizing: Sendable {
    /// The MVPD's verdict about one resource for `userID`, asked by `kind`; `bearer` (an OAuth 2.0 access token)
    /// replaces the MVPD's API key; `xacml` says how XACML travels.
    func authorize(
        mvpd: MVPDRecord, userID: String, resource: String, kind: MVPDAuthorizationProtocol, clientIP: String?, bearer: String?,
        xacml: XACMLCall
    ) async -> MVPDAuthorizationClient.Verdict
    /// The verdicts about `resources` (in order) in one XACML 2.0 preflight call.
    func preflightXACML(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?, call: XACMLCall
    ) async -> [MVPDAuthorizationClient.Verdict]
    /// The verdicts about `resources` (in order) in one REST-form preflight call.
    func preflightREST(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?
    ) async -> [MVPDAuthorizationClient.Verdict]
}

extension MVPDAuthorizationClient: MVPDAuthorizing {}
