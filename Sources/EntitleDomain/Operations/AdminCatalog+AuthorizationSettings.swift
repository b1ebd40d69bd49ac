import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// How an MVPD is asked for authorization, checked the same way for every front end and every kind of MVPD.
extension AdminCatalog {
    /// What ``checkAuthorizationSettings(mvpd:authorizationURL:_:)`` found to store: nil parts stay as they are.
    package struct CheckedAuthorizationSettings: Sendable {
        package var authorizationProtocol: MVPDAuthorizationProtocol?
        package var xacml: MVPDXACMLOptions?

        /// Creates the value from each of its stored properties.
        package init(authorizationProtocol: MVPDAuthorizationProtocol? = nil, xacml: MVPDXACMLOptions? = nil) {
            self.authorizationProtocol = authorizationProtocol
            self.xacml = xacml
        }
    }

    /// Checks `settings` against what the MVPD has (its authorization URL after the change is `authorizationURL`): xacml
    /// and rest need a URL, none refuses one, the SOAP binding and signing apply to xacml only, and signing needs the SOAP
    /// binding. Nothing is stored.
    package func checkAuthorizationSettings(
        mvpd: String, authorizationURL: String?, _ settings: AuthorizationSettings
    ) async throws -> CheckedAuthorizationSettings {
        var kind = try await catalog.authorizationProtocol(mvpd: mvpd)
        if let chosen = settings.authorizationProtocol { kind = chosen }
        var xacml = try await mvpdOptions.xacmlOptions(mvpd: mvpd)
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
    package func storeAuthorizationSettings(mvpd: String, _ checked: CheckedAuthorizationSettings) async throws {
        if let kind = checked.authorizationProtocol { try await catalog.setAuthorizationProtocol(mvpd: mvpd, kind) }
        if let xacml = checked.xacml { try await mvpdOptions.setXACMLOptions(mvpd: mvpd, xacml) }
    }
}
