import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel

extension MVPDAuthorizationProtocol: ExpressibleByArgument {}
extension XACMLBinding: ExpressibleByArgument {}

/// The authorization-protocol options of `entitle admin mvpd add` and `mvpd update`.
struct MVPDAuthorizationProtocolOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How authorization is asked: xacml (XACML 2.0 POST), rest (GET ?uuID&mrss&IPAddress), entitle-json (default), none.",
            discussion: "xacml and rest need --authorization-url; none authorizes every authenticated subscriber (as --authorize-all)."))
    var authorizationProtocol: MVPDAuthorizationProtocol?
    @Option(
        help: ArgumentHelp(
            "How XACML travels: plain (the request context, default) or soap (XACMLAuthzDecisionQuery in a SOAP envelope, SAML answer).",
            discussion: "For --authorization-protocol xacml."))
    var xacmlBinding: XACMLBinding?
    @Flag(
        inversion: .prefixedNo,
        help: "Sign SOAP XACML queries with the service's SAML SP key (the MVPD requires it; needs --xacml-binding soap).")
    var signAuthorizationQueries: Bool?

    /// Checks the protocol against the authorization URL given (`mvpd add`: the URL is the only one).
    func validate(authorizationURL: String?) throws {
        if let kind = authorizationProtocol {
            if (kind == .xacml || kind == .rest) && authorizationURL == nil {
                throw ValidationError("--authorization-protocol \(kind.rawValue) needs --authorization-url.")
            }
            if kind == .noCall && authorizationURL != nil {
                throw ValidationError("--authorization-protocol none and --authorization-url exclude each other.")
            }
        }
        if (xacmlBinding != nil || signAuthorizationQueries != nil) && authorizationProtocol != .xacml {
            throw ValidationError("--xacml-binding and --sign-authorization-queries need --authorization-protocol xacml.")
        }
        if signAuthorizationQueries == true && xacmlBinding != .soap {
            throw ValidationError("--sign-authorization-queries needs --xacml-binding soap (the signature is in the SOAP query).")
        }
    }

    /// The settings as the service takes them.
    var settings: AuthorizationSettings {
        AuthorizationSettings(
            authorizationProtocol: authorizationProtocol, xacmlBinding: xacmlBinding, signQueries: signAuthorizationQueries)
    }
}
