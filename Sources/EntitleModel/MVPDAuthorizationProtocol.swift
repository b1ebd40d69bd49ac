import EntitleCore

/// How Entitle asks an MVPD for authorization decisions.
package enum MVPDAuthorizationProtocol: String, Codable, Sendable, CaseIterable {
    /// Entitle's own JSON contract (`POST {authorizationURL}` with `{"userID","resource"}`); the default.
    case entitleJSON = "entitle-json"
    /// XACML 2.0 request context posted to the MVPD's PDP (notes §1).
    case xacml
    /// The REST GET form with `uuID`, base64 `mrss` and `IPAddress` (notes §2), answered with an XACML response.
    case rest
    /// No authorization call: every authenticated subscriber is authorized (`--authorize-all`).
    case noCall = "none"
}
