import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel

extension PreflightMode: ExpressibleByArgument {}

/// `--preflight lineup|mvpd` and `--lineup-attribute` of `entitle admin mvpd add` and `integration set`.
struct PreflightLineupOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How preauthorize is answered for the integration: lineup (from the channel lineup in the MVPD's SAML assertion, no MVPD call) or mvpd.",
            discussion: "A sign-in whose assertion lacks the attribute is answered by the MVPD (preflight in one call or per resource)."))
    var preflight: PreflightMode?
    @Option(help: "With --preflight lineup: the SAML attribute with one AttributeValue per preauthorized resource (default: authorized_resources).")
    var lineupAttribute: String?

    func validate() throws {
        if lineupAttribute != nil && preflight != .lineup { throw ValidationError("--lineup-attribute needs --preflight lineup.") }
        if let lineupAttribute {
            do { try IntegrationOperations.checkLineupAttribute(lineupAttribute) } catch { throw ValidationError("\(error)") }
        }
    }

    /// Applies the mode to the integration of `requestor` with `mvpd` (recorded); nothing without `--preflight`.
    func apply(_ service: EntitleService, requestor: String, mvpd: String) async throws {
        guard let preflight else { return }
        try await service.integrations.setPreflightMode(
            requestor: requestor, mvpd: mvpd, preflight, attribute: lineupAttribute, actor: Admin.cliActor)
    }
}
