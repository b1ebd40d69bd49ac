import Foundation
import Hummingbird
import SAML

/// Operations and public documents: `/healthz`, `/metrics`, `/openapi.json`, `/keys/media-token`, `/sp/saml/metadata`.
extension EntitleService {
    func addOperationsRoutes(to router: Router<AppContext>) {
        router.get("/healthz") { _, _ in
            JSONCoding.response(["status": "ok"])
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: ByteBuffer(string: self.metrics.render())))
        }
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
        router.get("/keys/media-token") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/x-pem-file", .cacheControl: "max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(string: try await self.keys.mediaTokenCertificatesPEM())))
        }
        router.get("/sp/saml/metadata") { _, _ in
            let identity = try await self.keys.signingIdentity(purpose: ServiceKeys.Purpose.samlSP)
            let metadata = ServiceProviderMetadata(entityID: self.configuration.spEntityID,
                                                   assertionConsumerServiceURL: self.configuration.assertionConsumerServiceURL,
                                                   singleLogoutURL: self.configuration.singleLogoutURL,
                                                   signingCertificate: identity.certificate)
            return Response(status: .ok, headers: [.contentType: "application/samlmetadata+xml"],
                            body: .init(byteBuffer: ByteBuffer(string: metadata.xml())))
        }
    }
}
