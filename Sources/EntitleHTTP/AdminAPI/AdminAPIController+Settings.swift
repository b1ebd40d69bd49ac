import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Settings of the catalog and keys: how long MVPD authorization answers are kept, a requestor's media-token
/// algorithm, legacy key pairs (REST v1 / adobe-services request signing), and the cache flush. Each is the operation the
/// CLI and the console use, with the same changes-log entry.
extension AdminAPIController {
    package func addSettingsRoutes(to group: RouterGroup<AdminContext>) {
        group.get("authorization-ttls") { _, _ in
            Self.json(try await service.integrations.authorizationTTLs().map(AuthorizationTTLView.init))
        }
        group.put("authorization-ttls") { request, context in
            let body = try await Self.decode(AuthorizationTTLView.self, request, context: context)
            try await service.integrations.setAuthorizationTTL(
                mvpd: body.mvpd, requestor: body.requestor == AuthorizationTTLRecord.anyRequestor ? nil : body.requestor, seconds: body.seconds,
                actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
        group.get("media-token-algorithms") { _, _ in
            Self.json(try await service.keyOperations.mediaTokenAlgorithms().map(MediaTokenAlgorithmView.init))
        }
        group.put("requestors/:id/media-token-algorithm") { request, context in
            let requestor = try context.parameters.require("id")
            let body = try await Self.decode(MediaTokenAlgorithmSetting.self, request, context: context)
            guard let algorithm = MediaTokenAlgorithm(name: body.algorithm) else {
                throw AdminAPIError.make(400, "invalid_value", "algorithm: use rsa-sha256, ecdsa-p256-sha256 or ed25519")
            }
            if let seconds = body.promoteAfterSeconds, seconds < 0 {
                throw AdminAPIError.make(400, "invalid_value", "promoteAfterSeconds must not be negative")
            }
            let key = try await service.keyOperations.setMediaTokenAlgorithm(
                requestor: requestor, algorithm, promoteAfter: body.promoteAfterSeconds.map { $0 * 1000 },
                actor: context.operatorIdentity.actor)
            return Self.json(
                MediaTokenAlgorithmView(
                    requestor: requestor, algorithm: algorithm.rawValue, kid: key?.kid,
                    signsFrom: key.map { Date(timeIntervalSince1970: Double($0.signsFrom) / 1000).ISO8601Format() }))
        }
        group.get("legacy-keys") { request, _ in
            guard let requestor = request.uri.queryParameters["requestor"].map(String.init), !requestor.isEmpty else {
                throw AdminAPIError.make(400, "invalid_request", "requestor: the requestor whose key pairs to list")
            }
            return Self.json(try await service.keyOperations.legacyAppKeys(requestor: requestor).map(LegacyKeyView.init))
        }
        group.post("legacy-keys/revoke") { request, context in
            let body = try await Self.decode(LegacyKeyRevocation.self, request, context: context)
            try await service.keyOperations.revokeLegacyAppKey(publicKey: body.publicKey, actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
        group.post("cache/flush") { _, context in
            Self.json(CacheFlushView(catalogVersion: try await service.cacheFlush.flush(actor: context.operatorIdentity.actor)))
        }
    }

    /// How long an MVPD's authorization answers are kept, for one requestor or every one (`*`).
    package struct AuthorizationTTLView: Codable {
        package var requestor: String?
        package var mvpd: String
        package var seconds: Int64

        package init(_ record: AuthorizationTTLRecord) {
            (requestor, mvpd, seconds) = (record.requestorId, record.mvpdId, record.ttlSeconds)
        }
    }

    /// A requestor's media-token algorithm; for ECDSA and Ed25519 the key that signs them and from when.
    package struct MediaTokenAlgorithmView: Encodable {
        package var requestor: String
        package var algorithm: String
        package var kid: String?
        package var signsFrom: String?

        package init(requestor: String, algorithm: String, kid: String? = nil, signsFrom: String? = nil) {
            (self.requestor, self.algorithm, self.kid, self.signsFrom) = (requestor, algorithm, kid, signsFrom)
        }

        package init(_ record: MediaTokenAlgorithmRecord) {
            self.init(requestor: record.requestorId, algorithm: record.algorithm.rawValue)
        }
    }

    /// The body of `PUT requestors/{id}/media-token-algorithm`.
    package struct MediaTokenAlgorithmSetting: Decodable {
        package var algorithm: String
        package var promoteAfterSeconds: Int64?
    }

    /// A legacy key pair as listed: never its private key.
    package struct LegacyKeyView: Encodable {
        package var publicKey: String
        package var requestor: String
        package var createdAt: String
        package var revoked: Bool

        package init(_ record: LegacyAppKeyRecord) {
            publicKey = record.publicKey
            requestor = record.requestorId
            createdAt = Date(timeIntervalSince1970: Double(record.createdAt) / 1000).ISO8601Format()
            revoked = record.revoked
        }
    }

    /// The body of `POST legacy-keys/revoke`.
    package struct LegacyKeyRevocation: Decodable {
        package var publicKey: String
    }

    /// The catalog version after a flush.
    package struct CacheFlushView: Encodable {
        package var catalogVersion: Int64
    }
}
