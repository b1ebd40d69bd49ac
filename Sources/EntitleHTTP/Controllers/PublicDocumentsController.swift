import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import SAML

/// Public documents and liveness: `/healthz`, `/openapi.json`, `/keys/media-token`, `/sp/saml/metadata`.
package struct PublicDocumentsController: Sendable {
    package let keys: ServiceKeys
    package let configuration: ServiceConfiguration

    /// Adds the routes to the router (never throttled: monitoring and key fetches must always answer).
    package func addRoutes(to router: Router<AppContext>) {
        router.get("/healthz") { _, _ in
            ["status": "ok"] as [String: String]
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        router.get("/keys/media-token") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/x-pem-file", .cacheControl: "max-age=\(ServiceKeys.verifierCacheSeconds)"],
                body: .init(byteBuffer: ByteBuffer(string: try await keys.mediaTokenCertificatesPEM())))
        }
        router.get("/sp/saml/metadata") { _, _ in
            let identity = try await keys.signingIdentity(purpose: KeyPurpose.samlSP)
            var metadata = ServiceProviderMetadata(
                entityID: configuration.spEntityID,
                assertionConsumerServiceURL: configuration.assertionConsumerServiceURL,
                singleLogoutURL: configuration.singleLogoutURL,
                signingCertificate: identity.certificate)
            // During a rotation the successor (and the key just retired) are published too, so IdPs trust both.
            metadata.additionalSigningCertificates = try await keys.samlSPCertificates()
            return Response(
                status: .ok, headers: [.contentType: "application/samlmetadata+xml"],
                body: .init(byteBuffer: ByteBuffer(string: metadata.xml())))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(keys: ServiceKeys, configuration: ServiceConfiguration) {
        self.keys = keys
        self.configuration = configuration
    }
}
