import Foundation
import Testing
@testable import SAML

@Suite struct SigningIdentityTests {
    @Test func pemRoundTrip() throws {
        let identity = Fixture.idp
        #expect(identity.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(identity.privateKeyPEM.contains("PRIVATE KEY-----"))
        let loaded = try SigningIdentity(privateKeyPEM: identity.privateKeyPEM, certificatePEM: identity.certificatePEM)
        #expect(loaded.certificate == identity.certificate)
        #expect(loaded.privateKey.derRepresentation == identity.privateKey.derRepresentation)
        #expect(loaded.privateKey.keySizeInBits == 2048)
        #expect(
            try SigningIdentity(privateKeyPEM: identity.privateKeyPEM, certificatePEM: identity.certificateBase64DER).certificate
                == identity.certificate)
    }

    @Test func certificateIsSelfSignedAndValid() throws {
        let certificate = Fixture.idp.certificate
        #expect(certificate.subject == certificate.issuer)
        #expect("\(certificate.subject)".contains("idp.test"))
        #expect(certificate.notValidBefore <= Fixture.now)
        #expect(certificate.notValidAfter > Fixture.now.addingTimeInterval(9 * 365 * 86400))
        #expect(certificate.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(try rsaPublicKey(of: certificate).derRepresentation == Fixture.idp.privateKey.publicKey.derRepresentation)
    }

    @Test func mismatchedKeyAndCertificateAreRejected() throws {
        #expect(throws: SAMLError.self) {
            try SigningIdentity(privateKeyPEM: Fixture.idp.privateKeyPEM, certificatePEM: Fixture.otherKey.certificatePEM)
        }
        #expect(throws: SAMLError.self) { try SigningIdentity(privateKeyPEM: "junk", certificatePEM: Fixture.idp.certificatePEM) }
        #expect(throws: SAMLError.self) { try parseCertificatePEMOrBase64DER("bm90IGEgY2VydA==") }
        #expect(throws: SAMLError.self) { try parseCertificatePEMOrBase64DER("***") }
    }

    @Test func parsesWrappedBase64() throws {
        let b64 = Fixture.idp.certificateBase64DER
        let wrapped = b64.enumerated().map { $0.offset % 64 == 63 ? "\($0.element)\n" : "\($0.element)" }.joined()
        #expect(try parseCertificatePEMOrBase64DER("\n  " + wrapped + "\n") == Fixture.idp.certificate)
    }
}
