import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The console's single sign-on page: the SSO issuers (Fire TV, Roku, service tokens), a form to register one and a
/// button to remove one — the operations of `entitle admin sso` and the admin API, with the same changes-log entries.
extension ConsoleController {
    package func addSingleSignOnRoutes(to group: RouterGroup<AdminContext>) {
        group.get("sso", use: singleSignOnPage)
        group.post("sso") { request, context in
            try await change(request, context, back: "/console/sso") { form in
                let view = try await service.ssoIssuers.add(
                    SSOOperations.Registration(
                        id: form["id"] ?? "", type: form["type"] ?? "", issuer: form["issuer"] ?? "",
                        publicKeys: form["publicKey"].map { [$0] } ?? [], jwksURL: form["jwksURL"], audience: form["audience"],
                        requestors: (form["requestors"] ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)),
                    actor: context.operatorIdentity.actor)
                return
                    "SSO issuer \(view.id) is registered: \(view.header) tokens from \(view.issuer), for \(view.requestors.joined(separator: ", "))."
            }
        }
        group.post("sso/:id/remove") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: "/console/sso") { _ in
                try await service.ssoIssuers.remove(id: id, actor: context.operatorIdentity.actor)
                return "SSO issuer \(id) is removed."
            }
        }
    }

    package func singleSignOnPage(_ request: Request, context: AdminContext) async throws -> Response {
        let issuers = try await service.ssoIssuers.issuers().map {
            ConsoleSingleSignOnPage.Issuer(
                id: $0.id, type: $0.type, issuer: $0.issuer, header: $0.header, profileType: $0.profileType,
                audience: $0.effectiveAudience ?? "not checked",
                keys: ($0.publicKeys + ($0.jwksUrl.map { ["JWKS " + $0] } ?? [])).joined(separator: "; "),
                requestors: $0.requestors.joined(separator: ", "))
        }
        return pages.page(
            ConsoleSingleSignOnPage(issuers: issuers), title: "Single sign-on", nav: .sso, identity: context.operatorIdentity,
            flash: ConsoleFlash(request: request))
    }
}

/// The SSO issuers and the form to register one (`sso.mustache`).
package struct ConsoleSingleSignOnPage: ConsolePageContent {
    package static let template = "sso"

    package struct Issuer: Sendable {
        package var id: String
        package var type: String
        package var issuer: String
        package var header: String
        package var profileType: String
        package var audience: String
        package var keys: String
        package var requestors: String
    }

    package var issuers: [Issuer]
}
