import EntitleCore
import Foundation

/// How an MVPD is asked for authorization — protocol, XACML binding and signing — and preflight per integration, checked
/// the same way for every front end.
extension EntitleService {
    /// The authorization settings to change; nil leaves one as it is.
    package struct AuthorizationSettings: Sendable, Equatable {
        /// The protocol.
        package var authorizationProtocol: MVPDAuthorizationProtocol?
        /// How XACML travels.
        package var xacmlBinding: XACMLBinding?
        /// Whether SOAP queries are signed.
        package var signQueries: Bool?

        /// Creates settings.
        package init(authorizationProtocol: MVPDAuthorizationProtocol? = nil, xacmlBinding: XACMLBinding? = nil, signQueries: Bool? = nil) {
            self.authorizationProtocol = authorizationProtocol
            self.xacmlBinding = xacmlBinding
            self.signQueries = signQueries
        }

        /// Whether nothing changes.
        package var isEmpty: Bool { self == AuthorizationSettings() }
    }

    /// What ``checkAuthorizationSettings(mvpd:authorizationURL:_:)`` found to store: nil parts stay as they are.
    struct CheckedAuthorizationSettings: Sendable {
        var authorizationProtocol: MVPDAuthorizationProtocol?
        var xacml: MVPDXACMLOptions?
    }

    /// Checks `settings` against what the MVPD has (its authorization URL after the change is `authorizationURL`): xacml
    /// and rest need a URL, none refuses one, the SOAP binding and signing apply to xacml only, and signing needs the SOAP
    /// binding. Nothing is stored.
    func checkAuthorizationSettings(
        mvpd: String, authorizationURL: String?, _ settings: AuthorizationSettings
    ) async throws -> CheckedAuthorizationSettings {
        var kind = try await repository.catalog.authorizationProtocol(mvpd: mvpd)
        if let chosen = settings.authorizationProtocol { kind = chosen }
        var xacml = try await repository.mvpdOptions.xacmlOptions(mvpd: mvpd)
        if let binding = settings.xacmlBinding { xacml.binding = binding }
        if let sign = settings.signQueries { xacml.signQueries = sign }
        if (kind == .xacml || kind == .rest) && authorizationURL == nil {
            throw ConfigurationError("The authorization protocol \(kind.rawValue) needs an authorization URL.")
        }
        if kind == .noCall && authorizationURL != nil {
            throw ConfigurationError("The authorization protocol none and an authorization URL exclude each other.")
        }
        if xacml.signQueries && xacml.binding != .soap {
            throw ConfigurationError("Signing authorization queries needs the SOAP binding (xacml binding soap).")
        }
        if xacml != .defaults && kind != .xacml && (settings.xacmlBinding != nil || settings.signQueries != nil) {
            throw ConfigurationError("The XACML binding and query signing apply to the xacml authorization protocol only.")
        }
        return CheckedAuthorizationSettings(
            authorizationProtocol: settings.authorizationProtocol,
            xacml: settings.xacmlBinding != nil || settings.signQueries != nil ? xacml : nil)
    }

    /// Stores settings checked by ``checkAuthorizationSettings(mvpd:authorizationURL:_:)``.
    func storeAuthorizationSettings(mvpd: String, _ checked: CheckedAuthorizationSettings) async throws {
        if let kind = checked.authorizationProtocol { try await repository.catalog.setAuthorizationProtocol(mvpd: mvpd, kind) }
        if let xacml = checked.xacml { try await repository.mvpdOptions.setXACMLOptions(mvpd: mvpd, xacml) }
    }

    /// Turns preflight in one call on (at most `maxResources` resources per MVPD call) or off (0) for one integration,
    /// and records it. The MVPD must answer xacml or rest.
    package func setPreflight(requestor: String, mvpd: String, maxResources: Int64, actor: String) async throws {
        guard (0...1000).contains(maxResources) else { throw AdminError("invalid_value", "the preflight maximum is 0 to 1000 resources") }
        guard try await repository.onboarding.integrations(requestor: requestor, mvpd: mvpd).first != nil else {
            throw AdminError(
                "unknown_integration", "\(mvpd) is not integrated with \(requestor) (`entitle admin integration enable` first)", status: 404)
        }
        let kind = try await repository.catalog.authorizationProtocol(mvpd: mvpd)
        if maxResources > 0 && kind != .xacml && kind != .rest {
            throw AdminError(
                "invalid_value", "preflight in one call needs the xacml or rest authorization protocol (\(mvpd) uses \(kind.rawValue))")
        }
        let before = try await repository.mvpdOptions.integrationPreflightMaxResources(requestor: requestor, mvpd: mvpd) ?? 0
        try await repository.mvpdOptions.setPreflight(requestor: requestor, mvpd: mvpd, maxResources: maxResources > 0 ? maxResources : nil)
        try await recordChange(
            actor: actor, action: "integration.update", target: "\(requestor)/\(mvpd)", before: ["preflightMaxResources": before],
            after: ["preflightMaxResources": maxResources])
    }
}
