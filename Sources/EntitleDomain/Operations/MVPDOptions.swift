import EntitleCore
import EntitleModel
import EntitleStorage

/// Options of an MVPD beyond its sign-in settings (SAML metadata or OAuth 2.0 endpoints), as `entitle admin mvpd add`,
/// the admin API, the console and the demo seeding give them.
package struct MVPDOptions: Sendable {
    /// Display name.
    package var displayName: String
    /// Logo URL.
    package var logoURL: String
    /// Authorization API URL.
    package var authorizationURL: String?
    /// Authorization API bearer key.
    package var authorizationKey: String?
    /// Whether the login needs SFSafariViewController.
    package var requiresSafariViewController = false
    /// Whether platform SSO is enabled.
    package var enablePlatformServices = false
    /// Platform boarding status.
    package var boardingStatus: String?
    /// Whether shown in the platform picker.
    package var displayInPlatformPicker = false
    /// Profile lifetime, seconds (30 days by default).
    package var profileTTLSeconds: Int64 = 30 * 86_400
    /// User-metadata keys delivered encrypted.
    package var encryptedAttributes: [String] = []
    /// User-metadata key → SAML attribute names (or `NameID`) it is read from, before ``SAMLAttributeMapping/defaults``.
    package var attributeMapping: [String: [String]] = [:]
    /// Accept RSA-SHA1 signatures and SHA-1 digests from this IdP (a legacy MVPD; logged as a warning).
    package var allowRSASHA1 = false
    /// Without an authorization URL, authorize every authenticated subscriber (instead of `invalid_integration`).
    package var authorizeAllAuthenticated = false
    /// How authorization is asked (nil: leave as configured, `entitle-json` for a new MVPD).
    package var authorizationProtocol: MVPDAuthorizationProtocol?
    /// How XACML travels (nil: leave as configured, `plain` for a new MVPD).
    package var xacmlBinding: XACMLBinding?
    /// Whether SOAP XACML queries are signed with the SAML SP key (nil: leave as configured, unsigned for a new MVPD).
    package var signAuthorizationQueries: Bool?

    /// The authorization settings these options change.
    package var authorizationSettings: AuthorizationSettings {
        AuthorizationSettings(authorizationProtocol: authorizationProtocol, xacmlBinding: xacmlBinding, signQueries: signAuthorizationQueries)
    }

    /// Creates options.
    package init(displayName: String, logoURL: String, authorizationURL: String? = nil, authorizationKey: String? = nil) {
        self.displayName = displayName
        self.logoURL = logoURL
        self.authorizationURL = authorizationURL
        self.authorizationKey = authorizationKey
    }
}
