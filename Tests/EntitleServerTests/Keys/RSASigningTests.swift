import Crypto
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing
import _CryptoExtras

/// Media tokens are signed with RSA through the system's libcrypto where it is present: the signatures must be the
/// same bytes swift-crypto makes (PKCS#1 v1.5 is deterministic), so verifiers cannot tell the implementations apart.
@Suite struct RSASigningTests {
    private static let bodies = [
        Data("<shortAuthorizationToken><sessionGUID>4c2a</sessionGUID></shortAuthorizationToken>".utf8),
        Data(), Data(repeating: 0xA5, count: 10_000),
    ]

    @Test(arguments: [_RSA.Signing.KeySize.bits2048, .bits3072])
    func bothImplementationsSignTheSameBytes(size: _RSA.Signing.KeySize) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: size)
        let signingKey = RSASigning.mediaTokenKey(privateKeyPEM: key.pemRepresentation, key: key)
        #if os(Linux)
        #expect(!(signingKey is MediaTokenPrivateKey), "the system libcrypto should have taken the key")
        #expect(RSASigning.implementationName.contains("OpenSSL"))
        #endif
        for body in Self.bodies {
            let reference = try key.signature(for: body, padding: .insecurePKCS1v1_5).rawRepresentation
            let signature = try signingKey.signature(for: body)
            #expect(signature == reference)
            #expect(signingKey.publicKey.isValidSignature(signature, digest: SHA256.hash(data: body), body: { body }))
        }
    }

    @Test func aPKCS1PEMSignsTheSameBytes() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let pkcs1 = key.pemRepresentation.contains("BEGIN RSA PRIVATE KEY") ? key.pemRepresentation : key.pkcs1PEM
        let signingKey = RSASigning.mediaTokenKey(privateKeyPEM: pkcs1, key: key)
        let body = Self.bodies[0]
        #expect(try signingKey.signature(for: body) == key.signature(for: body, padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    @Test func aPEMTheSystemCannotReadFallsBackToSwiftCrypto() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signingKey = RSASigning.mediaTokenKey(privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----", key: key)
        #expect(signingKey is MediaTokenPrivateKey)
        let body = Self.bodies[0]
        #expect(try signingKey.signature(for: body) == key.signature(for: body, padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    @Test func aNonRSAKeyIsRefusedBySystemRSA() throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(RSASigning.mediaTokenKey(privateKeyPEM: pem, key: rsa) is MediaTokenPrivateKey)
    }

    @Test func theSignerSerializesTheSameTokenWithEitherImplementation() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let token = ShortMediaToken(
            sessionGUID: "g", requestorID: "REF", resourceID: "news", ttl: 420_000, issueTime: 1_800_000_000_000,
            mvpdID: "DemoCable", proxyMvpdID: "")
        let system = MediaTokenSigner(signingKey: RSASigning.mediaTokenKey(privateKeyPEM: key.pemRepresentation, key: key))
        #expect(try system.serialize(token) == MediaTokenSigner(privateKey: key).serialize(token))
    }
}

extension _RSA.Signing.PrivateKey {
    /// The PKCS#1 (`RSA PRIVATE KEY`) PEM of the key, from its PKCS#8 DER (the PKCS#1 structure is the OCTET STRING at
    /// the end of the PKCS#8 PrivateKeyInfo).
    fileprivate var pkcs1PEM: String {
        let der = [UInt8](derRepresentation)
        // PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING privateKey }: skip to the last TLV.
        var index = 0
        func length() -> Int {
            let first = Int(der[index]); index += 1
            guard first & 0x80 != 0 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) { value = value << 8 | Int(der[index]); index += 1 }
            return value
        }
        index += 1; _ = length()  // outer SEQUENCE
        index += 1; index += length()  // version INTEGER
        index += 1; index += length()  // AlgorithmIdentifier
        index += 1; let count = length()  // OCTET STRING
        let pkcs1 = Data(der[index..<(index + count)])
        return "-----BEGIN RSA PRIVATE KEY-----\n" + pkcs1.base64EncodedString(options: .lineLength64Characters) + "\n-----END RSA PRIVATE KEY-----"
    }
}
