/// What a service signing key is for; each purpose has its own key and is rotated on its own.
///
/// An ``OpenCode``: a key stored by a newer instance sharing the database is read without failing. Admin input must
/// be one of ``known``.
public struct KeyPurpose: OpenCode {
    /// The purpose as stored (and as the first part of a key id).
    public let rawValue: String
    /// Creates a purpose from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// RSA-2048 short media tokens.
    public static let mediaToken = KeyPurpose(rawValue: "media-token")
    /// ECDSA P-256 short media tokens.
    public static let mediaTokenECDSAP256 = KeyPurpose(rawValue: "media-token-ecdsa-p256")
    /// Ed25519 short media tokens.
    public static let mediaTokenEd25519 = KeyPurpose(rawValue: "media-token-ed25519")
    /// Software statements and access tokens (JWT).
    public static let jwt = KeyPurpose(rawValue: "jwt")
    /// SAML AuthnRequest and LogoutRequest signing.
    public static let samlSP = KeyPurpose(rawValue: "saml-sp")

    /// AES-256-GCM encryption of secrets kept at rest: OAuth 2.0 MVPDs' refresh tokens and client secrets. Created on
    /// first use; an old key keeps decrypting what it encrypted after a rotation.
    public static let tokenEncryption = KeyPurpose(rawValue: "token-encryption")

    /// Every purpose this version creates keys for.
    public static let known: [KeyPurpose] = [.mediaToken, .mediaTokenECDSAP256, .mediaTokenEd25519, .jwt, .samlSP, .tokenEncryption]

    /// Whether the purpose signs media tokens, whatever the algorithm.
    public var isMediaToken: Bool { rawValue.hasPrefix(KeyPurpose.mediaToken.rawValue) }
}
