import _CryptoExtras
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import SystemRSA

/// The RSA implementation that signs on the hot path (media tokens): the system's OpenSSL libcrypto where it is
/// present and reads the key, swift-crypto otherwise. PKCS#1 v1.5 is deterministic, so both give the same bytes.
package enum RSASigning {
    /// The implementation media tokens are signed with, as logged at start and shown by `entitle bench verifier`.
    package static var implementationName: String {
        SystemRSASigningKey.implementationName.map { "\($0) (system libcrypto)" } ?? "swift-crypto (BoringSSL)"
    }

    /// The media-token key for an RSA private key: the system implementation when it loads the PEM, else `key` itself.
    package static func mediaTokenKey(privateKeyPEM: String, key: _RSA.Signing.PrivateKey) -> any MediaTokenSigningKey {
        guard let system = try? SystemRSASigningKey(pem: privateKeyPEM) else { return MediaTokenPrivateKey.rsa(key) }
        return SystemRSAMediaTokenKey(system: system, publicKey: .rsa(key.publicKey))
    }
}

/// A media-token RSA key signed through the system's libcrypto.
package struct SystemRSAMediaTokenKey: MediaTokenSigningKey {
    package let system: SystemRSASigningKey
    package let publicKey: MediaTokenPublicKey

    package var algorithm: MediaTokenAlgorithm { .rsaSHA256 }

    package func signature(for body: Data) throws -> Data {
        try system.signature(for: body)
    }

    /// Creates the value from each of its stored properties.
    package init(system: SystemRSASigningKey, publicKey: MediaTokenPublicKey) {
        self.system = system
        self.publicKey = publicKey
    }
}
