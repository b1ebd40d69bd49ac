/// Per-MVPD settings for a SAML identity provider beyond its metadata: how its attributes map to user metadata,
/// whether legacy RSA-SHA1 signatures are accepted, and whether every authenticated subscriber is authorized.
package struct MVPDSAMLOptionsRecord: Sendable, Equatable {
    /// MVPD id.
    package var mvpdId: String
    /// User-metadata key → SAML attribute names (or `NameID`), first present wins.
    package var attributeMapping: [String: [String]]
    /// Whether RSA-SHA1 signatures and SHA-1 digests are accepted from this MVPD.
    package var allowRSASHA1: Bool
    /// Whether an MVPD without an authorization endpoint authorizes every authenticated subscriber.
    package var authorizeAll: Bool

    /// Creates the value from each of its stored properties.
    package init(mvpdId: String, attributeMapping: [String: [String]], allowRSASHA1: Bool, authorizeAll: Bool) {
        self.mvpdId = mvpdId
        self.attributeMapping = attributeMapping
        self.allowRSASHA1 = allowRSASHA1
        self.authorizeAll = authorizeAll
    }
}
