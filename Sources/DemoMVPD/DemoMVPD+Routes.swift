import EntitleCore
import Foundation
import Hummingbird

extension DemoMVPD {
    /// Registers every route under `group` (the caller creates the group at path "demo-mvpd"):
    /// `GET {mvpd}/saml/metadata`, `GET {mvpd}/logo.svg`, then each role's — ``DemoSAMLIdentityProvider``
    /// (`GET|POST {mvpd}/saml/sso`, `POST {mvpd}/saml/login`, `GET {mvpd}/saml/slo`, `GET {mvpd}/login`, `GET {mvpd}/account`,
    /// `POST {mvpd}/logout`), ``DemoXACMLDecisionPoint`` (`POST {mvpd}/authorize`, `POST {mvpd}/xacml`,
    /// `POST {mvpd}/xacml/soap`, `GET {mvpd}/rest/authz`), ``DemoPlatformSSO`` (`POST {mvpd}/platform/sso`) and
    /// ``DemoOAuth2Provider`` (`{mvpd}/.well-known/openid-configuration`, `{mvpd}/oauth2/…`).
    package func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.get(":mvpd/saml/metadata") { _, context in
            self.metadataResponse(providerID: context.parameters.get("mvpd") ?? "")
        }
        group.get(":mvpd/logo.svg") { _, context in
            self.logoResponse(providerID: context.parameters.get("mvpd") ?? "")
        }
        identityProvider.addRoutes(to: group)
        decisionPoint.addRoutes(to: group)
        platformSSO.addRoutes(to: group)
        oauth2.addRoutes(to: group)
    }

    /// `GET {mvpd}/saml/metadata`: the IdP metadata of a SAML provider.
    func metadataResponse(providerID: String) -> Response {
        guard let metadata = metadata(for: providerID) else { return state.notFoundPage() }
        return Response(
            status: .ok, headers: [.contentType: "application/samlmetadata+xml; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: metadata.xml())))
    }

    /// `GET {mvpd}/logo.svg`.
    func logoResponse(providerID: String) -> Response {
        guard let provider = Self.provider(id: providerID) else { return state.notFoundPage() }
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "public, max-age=86400",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: provider.logoSVG)))
    }
}
