import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Preflight per integration: in one MVPD call (xacml or rest), or by channel lineup (notes §3, way 2), where the MVPD's
/// SAML assertion lists the preauthorized resources in one attribute, kept with the profile, and preauthorize answers
/// from it without calling the MVPD.
extension IntegrationOperations {
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
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        try await lookups.existingIntegration(requestor: requestor, mvpd: mvpd)
        var chosen: String?
        switch mode {
        case .lineup:
            let name = attribute ?? Self.defaultLineupAttribute
            try Self.checkLineupAttribute(name)
            guard let record = try await catalog.mvpd(id: mvpd), record.kind == .saml, !record.isTempPass else {
                throw AdminError("invalid_value", "preflight by lineup needs a SAML 2.0 MVPD (the lineup comes in its assertion)")
            }
            chosen = name
        case .mvpd:
            guard attribute == nil else { throw AdminError("invalid_value", "a lineup attribute is given only with preflight lineup") }
        }
        let before = try await mvpdOptions.preflightLineupAttribute(requestor: requestor, mvpd: mvpd)
        try await mvpdOptions.setPreflightLineup(requestor: requestor, mvpd: mvpd, attribute: chosen)
        try await changes.record(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)",
            before: ["preflightMode": before == nil ? "mvpd" : "lineup", "lineupAttribute": before ?? ""],
            after: ["preflightMode": mode.rawValue, "lineupAttribute": chosen ?? ""])
    }

    /// Turns preflight in one call on (at most `maxResources` resources per MVPD call) or off (0) for one integration,
    /// and records it. The MVPD must answer xacml or rest.
    package func setPreflight(requestor: String, mvpd: String, maxResources: Int64, actor: String) async throws {
        try OperatorReach.requireIntegration(requestor: requestor, mvpd: mvpd)
        guard (0...1000).contains(maxResources) else { throw AdminError("invalid_value", "the preflight maximum is 0 to 1000 resources") }
        try await lookups.existingIntegration(requestor: requestor, mvpd: mvpd)
        let kind = try await catalog.authorizationProtocol(mvpd: mvpd)
        if maxResources > 0 && kind != .xacml && kind != .rest {
            throw AdminError(
                "invalid_value", "preflight in one call needs the xacml or rest authorization protocol (\(mvpd) uses \(kind.rawValue))")
        }
        let before = try await mvpdOptions.integrationPreflightMaxResources(requestor: requestor, mvpd: mvpd) ?? 0
        try await mvpdOptions.setPreflight(requestor: requestor, mvpd: mvpd, maxResources: maxResources > 0 ? maxResources : nil)
        try await changes.record(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)", before: ["preflightMaxResources": before],
            after: ["preflightMaxResources": maxResources])
    }
}
