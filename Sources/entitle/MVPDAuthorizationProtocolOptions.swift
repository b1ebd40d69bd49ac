import ArgumentParser
import EntitleServer

extension MVPDAuthorizationProtocol: ExpressibleByArgument {}

/// The authorization-protocol options of `entitle admin mvpd add` (kept apart so `mvpd update` can share them).
struct MVPDAuthorizationProtocolOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How authorization is asked: xacml (XACML 2.0 POST), rest (GET ?uuID&mrss&IPAddress), entitle-json (default), none.",
            discussion: "xacml and rest need --authorization-url; none authorizes every authenticated subscriber (as --authorize-all)."))
    var authorizationProtocol: MVPDAuthorizationProtocol?

    /// Checks the protocol against the authorization URL given.
    func validate(authorizationURL: String?) throws {
        guard let kind = authorizationProtocol else { return }
        if (kind == .xacml || kind == .rest) && authorizationURL == nil {
            throw ValidationError("--authorization-protocol \(kind.rawValue) needs --authorization-url.")
        }
        if kind == .noCall && authorizationURL != nil {
            throw ValidationError("--authorization-protocol none and --authorization-url exclude each other.")
        }
    }
}
