import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// REST API v1 platform single sign-on (Apple, protocol notes §3.10–3.11): `GET /api/v1/{requestor}/profile-requests/{mvpd}`
/// answers the SAML request for the platform to relay to the MVPD; `POST /api/v1/tokens/authn` exchanges the MVPD's signed
/// answer for the device's AuthN token. The same partner sessions and `appleSSO` profiles as REST v2's partner SSO.
extension LegacyV1Controller {
    package func addPlatformSSORoutes(to api: RouterGroup<LegacyContext>) {
        api.get(":requestor/profile-requests/:mvpd") { request, context in
            let caller = context.caller
            let mvpd = try await self.v1PlatformMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            let session = try await partnerSSO.partnerSession(caller: caller, mvpd: mvpd, redirectURL: nil, domain: nil)
            guard let payload = session.authenticationRequest?.request else {
                throw APIError(.v1(400, "authentication_session_exists", "The device is already signed in with this MVPD."))
            }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: payload)))
        }
        api.post("tokens/authn") { request, context in
            let (v1, caller) = (context.v1, context.caller)
            let mvpd = try await self.v1PlatformMVPD(v1["mvpd"] ?? "", requestor: caller.requestor.id)
            guard let raw = v1["SAMLResponse"], raw.utf8.count <= 256 * 1024 else {
                throw APIError(.v1(400, "invalid_parameter_saml_response", "SAMLResponse is missing."))
            }
            _ = try await partnerSSO.partnerProfile(caller: caller, mvpd: mvpd, samlResponse: Self.v1PlatformSAMLResponse(raw))
            return self.v1Empty()
        }
    }

    /// An MVPD of the requestor boarded for platform SSO, or 400.
    package func v1PlatformMVPD(_ id: String, requestor: String) async throws -> MVPDRecord {
        guard !id.isEmpty, id.utf8.count <= 128, let mvpd = try await catalog.integratedMVPD(requestor: requestor, mvpd: id),
            mvpd.enablePlatformServices
        else {
            throw APIError(
                .v1(
                    400, "invalid_configuration_mvpd_platform", "The MVPD is not configured for platform single sign-on.",
                    action: "configuration"))
        }
        return mvpd
    }

    /// The platform's answer as the SAML Response's Base64: Apple's documented form is Base64 of the (Base64) answer.
    package static func v1PlatformSAMLResponse(_ raw: String) -> String {
        let trimmed = raw.filter { !$0.isWhitespace }
        if let decoded = Data(base64Encoded: trimmed).flatMap({ String(data: $0, encoding: .utf8) })?.filter({ !$0.isWhitespace }),
            !decoded.hasPrefix("<"), Data(base64Encoded: decoded) != nil
        {
            return decoded
        }
        return trimmed
    }
}
