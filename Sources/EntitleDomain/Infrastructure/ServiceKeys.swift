import Crypto
import _CryptoExtras
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import JWTKit
import SAML
import Synchronization
import X509

/// The service's signing keys, kept in the database so every instance uses the same ones:
/// the media-token key (RSA-2048 with a published certificate), the JWT key (ES256) and the SAML SP key.
/// Keys live in the catalog cache (a rotation anywhere is seen everywhere within the catalog's refresh bound); a rotated
/// key is published at once and signs only after a delay longer than every cache, so nobody meets a token signed
/// with a key it does not know yet.
package final class ServiceKeys: Sendable {
    /// How long a retired media-token key stays published (longer than any token lives).
    package static let retiredKeyGrace: Int64 = 24 * 3_600_000

    /// Seconds video servers keep a fetched `/keys/media-token` bundle (its `Cache-Control: max-age`, and the verifier's
    /// refresh interval): a rotated media-token key must be published at least this long before it signs.
    package static let verifierCacheSeconds: Int64 = 300

    /// How long a rotated key is published before it signs, ms, by purpose: longer than every cache of published keys
    /// (instances: ``CatalogCache/defaultRefreshInterval``; video servers' `RemoteKeySource`: 5 minutes by default).
    package static func promotionDelay(purpose: KeyPurpose) -> Int64 {
        purpose.isMediaToken ? 15 * 60_000 : 60_000
    }

    /// The keys, and the catalog cache their parsed forms are kept in.
    package let store: KeyStore
    private let clock: any ServiceClock
    /// Access tokens already verified by this instance.
    package let verifiedAccessTokens = VerifiedTokenCache()
    /// The catalog generation the cached keys belong to.
    package var catalogGeneration: UInt64 { store.catalogCache.generation }
    /// Whether the catalog was checked for changes within its refresh interval, so ``catalogGeneration`` is current.
    package var catalogIsFresh: Bool { store.catalogCache.isFresh() }

    /// Parsed signing keys by purpose and the kids of the records they were parsed from, dropped with the catalog.
    private let parsedKeys: CatalogSlot<ParsedKeysKey, CachedKeys>

    package struct CachedKeys: Sendable {
        /// Every published key: signing, pending and recently retired ones.
        package let all: [ServiceKeyRecord]
        /// Parsed RSA identities by kid (RSA purposes).
        package let identities: [String: SigningIdentity]
        /// Parsed JWT keys, every published one (JWT purpose).
        package let jwt: JWTKeyCollection?
        /// Parsed ECDSA P-256 / Ed25519 media-token keys by kid.
        package var mediaTokenKeys: [String: any MediaTokenSigningKey] = [:]

        /// The key that signs at `now`: the most recently activated one that is not retired.
        package func signing(at now: Int64) -> ServiceKeyRecord? {
            all.filter { $0.isSigning(at: now) }.max { ($0.signsFrom, $0.createdAt, $0.kid) < ($1.signsFrom, $1.createdAt, $1.kid) }
        }

        /// Creates the value from each of its stored properties.
        package init(
            all: [ServiceKeyRecord], identities: [String: SigningIdentity], jwt: JWTKeyCollection?,
            mediaTokenKeys: [String: any MediaTokenSigningKey] = [:]
        ) {
            self.all = all
            self.identities = identities
            self.jwt = jwt
            self.mediaTokenKeys = mediaTokenKeys
        }
    }

    /// Creates the key store.
    package init(store: KeyStore, clock: any ServiceClock) {
        self.store = store
        self.clock = clock
        parsedKeys = store.catalogCache.derivedSlot(CachedKeys.self)
    }

    /// Makes sure a key of every purpose exists.
    package func ensureKeys() async throws {
        for purpose in [KeyPurpose.mediaToken, .jwt, .samlSP] where try await store.activeKey(purpose: purpose) == nil {
            try await store.insertKey(try makeKey(purpose: purpose))
        }
    }

    /// Creates a new key for `purpose`, published at once and signing after `promoteAfter` ms (default
    /// ``promotionDelay(purpose:)``); the previous key signs until then and stays published for verification.
    @discardableResult
    package func rotate(purpose: KeyPurpose, promoteAfter: Int64? = nil) async throws -> ServiceKeyRecord {
        var key = try makeKey(purpose: purpose)
        // A new key, never one published now (only a test harness's reused keys could repeat: `RSAKeySource`).
        let published = Set(try await store.publishedKeys(purpose: purpose, retiredAfter: 0).map(\.privatePem))
        for _ in 0..<8 where published.contains(key.privatePem) { key = try makeKey(purpose: purpose) }
        let activation = key.createdAt + max(0, promoteAfter ?? Self.promotionDelay(purpose: purpose))
        key.activatesAt = activation
        try await store.insertKey(key)
        try await store.retireKeys(purpose: purpose, except: key.kid, at: activation)
        return key
    }

    package func makeKey(purpose: KeyPurpose) throws -> ServiceKeyRecord {
        let kid = purpose.rawValue + "-" + Secrets.randomHex(bytes: 6)
        let now = clock.nowMilliseconds()
        switch purpose {
        case .tokenEncryption:
            return ServiceKeyRecord(
                kid: kid, purpose: purpose, privatePem: TokenCipher.newKeyText(), certificatePem: "", createdAt: now, retiredAt: nil)
        case .jwt:
            let key = ES256PrivateKey()
            return ServiceKeyRecord(
                kid: kid, purpose: purpose, privatePem: key.pemRepresentation,
                certificatePem: key.publicKey.pemRepresentation, createdAt: now, retiredAt: nil)
        case _ where Self.extraMediaTokenAlgorithm(purpose: purpose) != nil:
            let pems = try Self.makeMediaTokenKey(
                Self.extraMediaTokenAlgorithm(purpose: purpose)!, commonName: "Entitle \(purpose) \(kid)", now: clock.now())
            return ServiceKeyRecord(
                kid: kid, purpose: purpose, privatePem: pems.privatePem,
                certificatePem: pems.certificatePem, createdAt: now, retiredAt: nil)
        default:
            let identity = try SigningIdentity.generate(commonName: "Entitle \(purpose) \(kid)", now: clock.now(), keys: .reusableInTests)
            return ServiceKeyRecord(
                kid: kid, purpose: purpose, privatePem: identity.privateKeyPEM,
                certificatePem: identity.certificatePEM, createdAt: now, retiredAt: nil)
        }
    }

    package func keys(purpose: KeyPurpose) async throws -> CachedKeys {
        let retiredAfter = clock.nowMilliseconds() - Self.retiredKeyGrace
        let records = try await store.publishedKeys(purpose: purpose, retiredAfter: retiredAfter)
        let kids = records.map(\.kid).joined(separator: ",")
        // Parsing keys is costly: the parsed set is kept with the catalog, for exactly these records.
        return try await store.cached(parsedKeys, ParsedKeysKey(purpose: purpose, kids: kids)) {
            var identities: [String: SigningIdentity] = [:]
            var jwt: JWTKeyCollection?
            if Self.extraMediaTokenAlgorithm(purpose: purpose) != nil {
                var parsed: [String: any MediaTokenSigningKey] = [:]
                for record in records { parsed[record.kid] = try MediaTokenPrivateKey(pem: record.privatePem) }
                return CachedKeys(all: records, identities: [:], jwt: nil, mediaTokenKeys: parsed)
            }
            if purpose == .jwt {
                let collection = JWTKeyCollection()
                for record in records {
                    await collection.add(ecdsa: try ES256PrivateKey(pem: record.privatePem), kid: JWKIdentifier(string: record.kid))
                }
                jwt = collection
            } else {
                for record in records {
                    identities[record.kid] = try SigningIdentity(privateKeyPEM: record.privatePem, certificatePEM: record.certificatePem)
                }
            }
            guard purpose == .mediaToken else { return CachedKeys(all: records, identities: identities, jwt: jwt) }
            // Media tokens are the hot path: their RSA keys also go to the fastest implementation on the machine.
            var fast: [String: any MediaTokenSigningKey] = [:]
            for record in records {
                guard let identity = identities[record.kid] else { continue }
                fast[record.kid] = RSASigning.mediaTokenKey(privateKeyPEM: record.privatePem, key: identity.privateKey)
            }
            return CachedKeys(all: records, identities: identities, jwt: jwt, mediaTokenKeys: fast)
        }
    }

    /// The key record that signs now.
    package func signingKey(purpose: KeyPurpose) async throws -> (record: ServiceKeyRecord, keys: CachedKeys) {
        let keys = try await keys(purpose: purpose)
        guard let active = keys.signing(at: clock.nowMilliseconds()) else { throw ConfigurationError("No \(purpose) key in the database.") }
        return (active, keys)
    }

    /// The signing identity (key + certificate) of an RSA purpose.
    package func signingIdentity(purpose: KeyPurpose) async throws -> SigningIdentity {
        let (active, keys) = try await signingKey(purpose: purpose)
        guard let identity = keys.identities[active.kid] else { throw ConfigurationError("\(purpose) is not an RSA key purpose.") }
        return identity
    }

    /// The PEM certificates that verify media tokens: the signing key, the next one and recently retired ones; the RSA
    /// ones first (existing verifiers read those), then ECDSA P-256 and Ed25519 ones when such keys exist.
    package func mediaTokenCertificatesPEM() async throws -> String {
        var ordered: [ServiceKeyRecord] = []
        for purpose in [KeyPurpose.mediaToken] + Self.extraMediaTokenPurposes {
            let keys = try await keys(purpose: purpose)
            let signing = keys.signing(at: clock.nowMilliseconds())?.kid
            // The signing key first: verifiers try keys in order.
            ordered += keys.all.filter { $0.kid == signing } + keys.all.filter { $0.kid != signing }
        }
        return ordered.map(\.certificatePem).joined(separator: "\n")
    }

    /// The clock's time in epoch milliseconds.
    package func nowMilliseconds() -> Int64 { clock.nowMilliseconds() }

    /// A JWT key collection with every JWT key; the active one is the default signer.
    package func jwtKeys() async throws -> (collection: JWTKeyCollection, activeKid: String) {
        let (active, keys) = try await signingKey(purpose: .jwt)
        guard let collection = keys.jwt else { throw ConfigurationError("JWT keys are missing.") }
        return (collection, active.kid)
    }
}
