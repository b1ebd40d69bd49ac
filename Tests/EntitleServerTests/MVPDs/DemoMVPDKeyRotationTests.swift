import EntitleClients
import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import SAML
import Testing

/// The DemoMVPD follows the service's published SP certificates instead of the one it read at start: after a saml-sp
/// key rotation (promoted after the usual delay, or at once as in an emergency) sign-in at DemoCable still succeeds,
/// and the SP metadata publishes the signing key and its successor during the overlap.
@Suite struct DemoMVPDKeyRotationTests {
    static func signsIn(_ local: LocalService, user: String = "alice") async throws -> Bool {
        let tv = try await local.client()
        let (code, outcome) = try await local.signIn(tv, user: user)
        guard case .external = outcome else { return false }
        return try await local.service.repository.profileStore.profile(requestor: "REF", sessionCode: code) != nil
    }

    static func keyDescriptors(_ local: LocalService) async throws -> Int {
        let tv = try await local.client()
        let metadata = try await tv.send(.GET, "/sp/saml/metadata", authorized: false)
        return metadata.text.components(separatedBy: "<md:KeyDescriptor").count - 1
    }

    @Test func signInAtDemoCableAfterASAMLSPKeyRotation() async throws {
        try await LocalService.run { local in
            #expect(try await Self.signsIn(local))
            let before = try await local.service.keys.signingIdentity(purpose: .samlSP).certificate
            #expect(try await Self.keyDescriptors(local) == 1)

            // Rotated as `entitle admin key rotate saml-sp` does: the successor is published now and signs after the delay.
            _ = try await local.service.keyOperations.rotate(purpose: .samlSP, promoteAfterSeconds: nil, actor: "test")
            #expect(try await Self.keyDescriptors(local) == 2, "the metadata publishes the signing key and its successor")
            #expect(try await Self.signsIn(local), "the old key still signs during the overlap")
            local.clock.advance(by: 120)
            let after = try await local.service.keys.signingIdentity(purpose: .samlSP).certificate
            #expect(after != before, "the successor signs now")
            #expect(try await Self.signsIn(local, user: "bob"), "sign-in after the promotion")

            // An emergency rotation that signs at once: the DemoMVPD reads the certificates again when a request does
            // not verify with the ones it holds.
            _ = try await local.service.keyOperations.rotate(purpose: .samlSP, promoteAfterSeconds: 0, actor: "test")
            #expect(try await local.service.keys.signingIdentity(purpose: .samlSP).certificate != after)
            #expect(try await Self.signsIn(local))
        }
    }

    @Test func aForgedSignatureIsStillRefusedAndRereadsAreBounded() async throws {
        try await LocalService.run { local in
            let demo = try #require(local.host.demo)
            #expect(try await Self.signsIn(local))
            let reads = demo.serviceProviderCertificates.reads.count
            #expect(reads >= 1)
            // A request signed by a key the service never published: refused, and however many arrive, the
            // certificates are read again at most once a second.
            let forger = try SigningIdentity.generate(commonName: "forger", now: Date())
            let request = AuthnRequest(
                id: AuthnRequest.newID(), issueInstant: local.clock.now(), issuer: local.service.configuration.spEntityID,
                destination: local.baseURL + "/demo-mvpd/DemoCable/saml/sso",
                assertionConsumerServiceURL: local.service.configuration.assertionConsumerServiceURL, forceAuthn: false)
            let url = try request.redirectURL(relayState: nil, signer: forger)
            let tv = try await local.client()
            let started = ContinuousClock.now
            for _ in 0..<5 {
                let answer = try await tv.send(.GET, url, authorized: false)
                #expect(answer.status == 400 && answer.text.contains("not correctly signed"), "\(answer.status)")
            }
            // At most one forced read per second of (real) time the five requests took: one when they are quick.
            let seconds = Int((ContinuousClock.now - started).components.seconds)
            #expect(demo.serviceProviderCertificates.reads.count <= reads + 1 + seconds)
        }
    }
}
