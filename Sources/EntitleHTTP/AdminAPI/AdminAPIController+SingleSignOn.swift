import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// SSO issuers (platform identity of Fire TV and Roku, a network's service tokens): the operations of
/// `entitle admin sso`, with the same changes-log entries (`sso.add`, `sso.update`, `sso.remove`).
extension AdminAPIController {
    package func addSingleSignOnRoutes(to group: RouterGroup<AdminContext>) {
        group.get("sso-issuers") { _, _ in
            Self.json(try await service.ssoIssuers.issuers())
        }
        group.post("sso-issuers") { request, context in
            let body = try await Self.decode(SSOIssuerBody.self, request, context: context)
            let view = try await service.ssoIssuers.add(
                SSOOperations.Registration(
                    id: body.id, type: body.type, issuer: body.issuer, publicKeys: body.publicKeys ?? [], jwksURL: body.jwksUrl,
                    audience: body.audience, requestors: body.requestors),
                actor: context.operatorIdentity.actor)
            return Self.json(view, status: .created)
        }
        group.get("sso-issuers/:id") { _, context in
            Self.json(try await service.ssoIssuers.issuer(id: try context.parameters.require("id")))
        }
        group.delete("sso-issuers/:id") { _, context in
            try await service.ssoIssuers.remove(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
    }

    /// The body of `POST sso-issuers`: an issuer to register or replace.
    package struct SSOIssuerBody: Decodable {
        package var id: String
        /// `amazon`, `roku` or `service-token`.
        package var type: String
        /// The `iss` claim of its tokens.
        package var issuer: String
        /// PEM public keys or certificates.
        package var publicKeys: [String]?
        /// Where the issuer publishes its keys as a JWKS.
        package var jwksUrl: String?
        /// The `aud` its tokens carry (a service token's default: `adobe`).
        package var audience: String?
        /// The requestors whose apps share its identities.
        package var requestors: [String]
    }
}
