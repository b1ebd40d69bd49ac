import EntitleCore

/// A service signing key with its certificate.
package struct ServiceKeyRecord: Codable, Sendable, Equatable {
    /// Key id.
    package var kid: String
    /// What the key signs.
    package var purpose: KeyPurpose
    /// PEM private key (never logged).
    package var privatePem: String
    /// PEM certificate (or public key for JWT keys).
    package var certificatePem: String
    /// Creation time, ms.
    package var createdAt: Int64
    /// When it stopped (or stops) being used for signing, ms.
    package var retiredAt: Int64?
    /// When it starts being used for signing, ms (nil: from `createdAt`). Until then it is only published, so every
    /// instance and verifier knows it before the first token it signs.
    package var activatesAt: Int64? = nil

    /// When the key signs from, ms.
    package var signsFrom: Int64 { activatesAt ?? createdAt }

    /// Whether the key is the kind that signs at `now` (activated, not retired).
    package func isSigning(at now: Int64) -> Bool { signsFrom <= now && (retiredAt.map { $0 > now } ?? true) }

    /// Creates the value from each of its stored properties.
    package init(
        kid: String, purpose: KeyPurpose, privatePem: String, certificatePem: String, createdAt: Int64, retiredAt: Int64? = nil,
        activatesAt: Int64? = nil
    ) {
        self.kid = kid
        self.purpose = purpose
        self.privatePem = privatePem
        self.certificatePem = certificatePem
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.activatesAt = activatesAt
    }
}
