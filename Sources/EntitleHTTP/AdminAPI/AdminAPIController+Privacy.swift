import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Privacy requests, as `entitle admin privacy export|erase` makes them: `POST privacy/export` answers everything held
/// about a device or an MVPD user; `POST privacy/erase` removes it. Both are POSTs (the identifier stays out of URLs and
/// access logs) and so need a read-write operator; both are recorded in the changes log without the identifier.
extension AdminAPIController {
    package func addPrivacyRoutes(to group: RouterGroup<AdminContext>) {
        group.post("privacy/export") { request, context in
            let body = try await Self.decode(PrivacyRequest.self, request, context: context)
            return Self.json(try await service.privacy.export(try body.subject(), reason: body.reason ?? "", actor: context.operatorIdentity.actor))
        }
        group.post("privacy/erase") { request, context in
            let body = try await Self.decode(PrivacyRequest.self, request, context: context)
            return Self.json(
                try await service.privacy.erase(
                    try body.subject(), reason: body.reason ?? "", vacuum: body.vacuum ?? false, actor: context.operatorIdentity.actor))
        }
    }

    /// The body of `POST privacy/export` and `POST privacy/erase`.
    package struct PrivacyRequest: Decodable {
        package var deviceId: String?
        package var userId: String?
        package var requestor: String?
        package var reason: String?
        package var vacuum: Bool?

        func subject() throws -> PrivacySubject {
            switch (deviceId, userId) {
            case (let device?, nil): return PrivacySubject(kind: .device, identifier: device, requestor: requestor)
            case (nil, let user?): return PrivacySubject(kind: .user, identifier: user, requestor: requestor)
            default: throw AdminAPIError.make(400, "invalid_request", "give one of deviceId or userId")
            }
        }
    }
}
