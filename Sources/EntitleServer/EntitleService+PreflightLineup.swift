import EntitleCore
import Foundation

/// Preflight by channel lineup (notes §3, way 2), per integration: the MVPD's SAML assertion lists the preauthorized
/// resources in one attribute, kept with the profile; preauthorize answers from it without calling the MVPD.
extension EntitleService {
    /// How preauthorize is answered for an integration: from the lineup of the sign-in, or by asking the MVPD.
    package enum PreflightMode: String, Sendable, CaseIterable {
        /// From the channel lineup the MVPD's assertion carried (no MVPD call).
        case lineup
        /// By asking the MVPD (in one call per `preflightMaxResources`, or one call per resource).
        case mvpd
    }

    /// The attribute name read when none is given: Adobe's example (`authorized_resources`).
    package static let defaultLineupAttribute = "authorized_resources"

    /// Checks a lineup attribute name: 1–256 printable ASCII characters without spaces (a SAML attribute `Name`, which
    /// may be a URN).
    package static func checkLineupAttribute(_ name: String) throws {
        guard !name.isEmpty, name.utf8.count <= 256, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw AdminError("invalid_value", "lineup attribute \"\(name.logEscaped)\": use 1-256 printable ASCII characters without spaces")
        }
    }

    /// Sets how one integration preflights: `.lineup` reads the lineup from `attribute` (default
    /// ``defaultLineupAttribute``) of each sign-in's assertion; `.mvpd` turns lineup off. Recorded. Only SAML MVPDs
    /// send assertions, so an OAuth 2.0 or TempPass MVPD is refused. Sign-ins made before the change carry no lineup:
    /// they are answered by the MVPD until the user signs in again.
    package func setPreflightMode(requestor: String, mvpd: String, _ mode: PreflightMode, attribute: String? = nil, actor: String) async throws {
        guard try await repository.onboarding.integrations(requestor: requestor, mvpd: mvpd).first != nil else {
            throw AdminError(
                "unknown_integration", "\(mvpd) is not integrated with \(requestor) (`entitle admin integration enable` first)", status: 404)
        }
        var chosen: String?
        switch mode {
        case .lineup:
            let name = attribute ?? Self.defaultLineupAttribute
            try Self.checkLineupAttribute(name)
            guard let record = try await repository.catalog.mvpd(id: mvpd), record.kind == .saml, !record.isTempPass else {
                throw AdminError("invalid_value", "preflight by lineup needs a SAML 2.0 MVPD (the lineup comes in its assertion)")
            }
            chosen = name
        case .mvpd:
            guard attribute == nil else { throw AdminError("invalid_value", "a lineup attribute is given only with preflight lineup") }
        }
        let before = try await repository.mvpdOptions.preflightLineupAttribute(requestor: requestor, mvpd: mvpd)
        try await repository.mvpdOptions.setPreflightLineup(requestor: requestor, mvpd: mvpd, attribute: chosen)
        try await recordChange(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)",
            before: ["preflightMode": before == nil ? "mvpd" : "lineup", "lineupAttribute": before ?? ""],
            after: ["preflightMode": mode.rawValue, "lineupAttribute": chosen ?? ""])
    }
}
