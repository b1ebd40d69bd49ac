import _CryptoExtras
import Crypto
import Foundation
import JWTKit
import SAML
import Synchronization
import X509

/// The service's signing keys, kept in the database so every instance uses the same ones:
/// the media-token key (RSA-2048 with a published certificate), the JWT key (ES256) and the SAML SP key.
/// Keys are cached for a short time so a rotation made by another instance is picked up quickly.
public final class ServiceKeys: Sendable {
    /// Key purposes.
    public enum Purpose {
        /// Short media tokens.
        public static let mediaToken = "media-token"
        /// Software statements and access tokens.
        public static let jwt = "jwt"
        /// SAML AuthnRequest / LogoutRequest signing.
        public static let samlSP = "saml-sp"
    }

    /// How long a retired media-token key stays published (longer than any token lives).
    public static let retiredKeyGrace: Int64 = 24 * 3_600_000

    private let repository: Repository
    private let clock: any ServiceClock
    private let cache = Mutex<[String: (loadedAt: Date, value: CachedKeys)]>([:])

    struct CachedKeys: Sendable {
        let active: ServiceKeyRecord
        let all: [ServiceKeyRecord]
        /// Parsed active RSA identity (RSA purposes).
        let identity: SigningIdentity?
        /// Parsed JWT keys (JWT purpose).
        let jwt: JWTKeyCollection?
    }

    /// Creates the key store.
    public init(repository: Repository, clock: any ServiceClock) {
        self.repository = repository
        self.clock = clock
    }

    /// Makes sure a key of every purpose exists.
    public func ensureKeys() async throws {
        for purpose in [Purpose.mediaToken, Purpose.jwt, Purpose.samlSP] where try await repository.activeKey(purpose: purpose) == nil {
            try await repository.insertKey(try makeKey(purpose: purpose))
        }
    }

    /// Creates a new key for `purpose` and retires the previous one (still published for verification).
    @discardableResult
    public func rotate(purpose: String) async throws -> ServiceKeyRecord {
        let key = try makeKey(purpose: purpose)
        try await repository.insertKey(key)
        try await repository.retireKeys(purpose: purpose, except: key.kid, at: clock.nowMilliseconds())
        cache.withLock { $0[purpose] = nil }
        return key
    }

    private func makeKey(purpose: String) throws -> ServiceKeyRecord {
        let kid = purpose + "-" + Secrets.randomHex(bytes: 6)
        let now = clock.nowMilliseconds()
        switch purpose {
        case Purpose.jwt:
            let key = ES256PrivateKey()
            return ServiceKeyRecord(kid: kid, purpose: purpose, privatePem: key.pemRepresentation,
                                    certificatePem: key.publicKey.pemRepresentation, createdAt: now, retiredAt: nil)
        default:
            let identity = try SigningIdentity.generate(commonName: "Entitle \(purpose) \(kid)", now: clock.now())
            return ServiceKeyRecord(kid: kid, purpose: purpose, privatePem: identity.privateKeyPEM,
                                    certificatePem: identity.certificatePEM, createdAt: now, retiredAt: nil)
        }
    }

    func keys(purpose: String) async throws -> CachedKeys {
        let now = clock.now()
        if let cached = cache.withLock({ $0[purpose] }), now.timeIntervalSince(cached.loadedAt) < 10 { return cached.value }
        guard let active = try await repository.activeKey(purpose: purpose) else {
            throw ConfigurationError("No \(purpose) key in the database.")
        }
        let all = try await repository.verificationKeys(purpose: purpose, retiredAfter: clock.nowMilliseconds() - Self.retiredKeyGrace)
        var identity: SigningIdentity?
        var jwt: JWTKeyCollection?
        if purpose == Purpose.jwt {
            let collection = JWTKeyCollection()
            for record in all {
                await collection.add(ecdsa: try ES256PrivateKey(pem: record.privatePem), kid: JWKIdentifier(string: record.kid))
            }
            jwt = collection
        } else {
            identity = try SigningIdentity(privateKeyPEM: active.privatePem, certificatePEM: active.certificatePem)
        }
        let value = CachedKeys(active: active, all: all, identity: identity, jwt: jwt)
        cache.withLock { $0[purpose] = (now, value) }
        return value
    }

    /// The signing identity (key + certificate) of an RSA purpose.
    public func signingIdentity(purpose: String) async throws -> SigningIdentity {
        guard let identity = try await keys(purpose: purpose).identity else { throw ConfigurationError("\(purpose) is not an RSA key purpose.") }
        return identity
    }

    /// The PEM certificates that verify media tokens: the active key and recently retired ones.
    public func mediaTokenCertificatesPEM() async throws -> String {
        try await keys(purpose: Purpose.mediaToken).all.map(\.certificatePem).joined(separator: "\n")
    }

    /// A JWT key collection with every JWT key; the active one is the default signer.
    public func jwtKeys() async throws -> (collection: JWTKeyCollection, activeKid: String) {
        let keys = try await keys(purpose: Purpose.jwt)
        guard let collection = keys.jwt else { throw ConfigurationError("JWT keys are missing.") }
        return (collection, keys.active.kid)
    }
}
