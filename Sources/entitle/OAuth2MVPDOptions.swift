import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

/// The OAuth 2.0 options of `entitle admin mvpd add`: an OAuth 2.0 MVPD instead of a SAML one, its endpoints by OIDC
/// discovery (`--oauth2-issuer`) or one by one, and Entitle's client registered there. The client secret comes from a
/// file or the environment variable `ENTITLE_OAUTH2_CLIENT_SECRET`, never from the command line.
struct OAuth2MVPDOptions: ParsableArguments {
    /// The environment variable read when `--client-secret-file` is not given.
    static let secretVariable = "ENTITLE_OAUTH2_CLIENT_SECRET"

    @Option(name: .customLong("oauth2-issuer"), help: "OpenID issuer URL: endpoints from {issuer}/.well-known/openid-configuration.")
    var issuer: String?
    @Option(name: .customLong("oauth2-authorize-url"), help: "OAuth 2.0 authorization endpoint (without --oauth2-issuer).")
    var authorizeURL: String?
    @Option(name: .customLong("oauth2-token-url"), help: "OAuth 2.0 token endpoint (without --oauth2-issuer).")
    var tokenURL: String?
    @Option(name: .customLong("oauth2-userinfo-url"), help: "User-profile (userinfo) endpoint (without --oauth2-issuer).")
    var userinfoURL: String?
    @Option(name: .customLong("oauth2-logout-url"), help: "The MVPD's logout endpoint, when it has one.")
    var logoutURL: String?
    @Option(help: "Entitle's client id at the OAuth 2.0 MVPD.") var clientID: String?
    @Option(help: "File holding Entitle's client secret at the MVPD (else the environment variable \(Self.secretVariable)).")
    var clientSecretFile: String?
    @Option(name: .customLong("scope"), help: "Scope to ask for (repeat for several).") var scopes: [String] = []
    @Option(help: "The userinfo claim that is the user id.") var userIDClaim = "sub"
    @Option(
        help:
            "URL the service is reached at, for the redirect URI to register (default: the service's --public-url from ENTITLE_PUBLIC_URL or the configuration file, else ENTITLE_URL)."
    )
    var publicURL: String?

    /// Whether an OAuth 2.0 MVPD is asked for.
    var isRequested: Bool {
        issuer != nil || authorizeURL != nil || tokenURL != nil || userinfoURL != nil || logoutURL != nil || clientID != nil
            || clientSecretFile != nil || !scopes.isEmpty
    }

    /// Checks the combination (called from `mvpd add`'s validation when ``isRequested``).
    func validate(samlMetadata: String?) throws {
        guard isRequested else { return }
        if samlMetadata != nil { throw ValidationError("--saml-metadata and the --oauth2-… options exclude each other.") }
        let manual = [authorizeURL, tokenURL, userinfoURL]
        if issuer != nil && manual.contains(where: { $0 != nil }) {
            throw ValidationError("Give --oauth2-issuer or the endpoints (--oauth2-authorize-url …), not both.")
        }
        if issuer == nil && manual.contains(where: { $0 == nil }) {
            throw ValidationError("An OAuth 2.0 MVPD needs --oauth2-issuer, or --oauth2-authorize-url, --oauth2-token-url and --oauth2-userinfo-url.")
        }
        guard let clientID, !clientID.isEmpty else { throw ValidationError("An OAuth 2.0 MVPD needs --client-id.") }
        if userIDClaim.isEmpty { throw ValidationError("--user-id-claim must not be empty.") }
    }

    /// The client secret from its file or the environment.
    func clientSecret(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let clientSecretFile {
            guard let text = try? String(contentsOfFile: clientSecretFile, encoding: .utf8) else {
                throw ValidationError("Cannot read \(clientSecretFile).")
            }
            let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !secret.isEmpty else { throw ValidationError("\(clientSecretFile) is empty.") }
            return secret
        }
        guard let secret = EnvironmentDefaults.value(Self.secretVariable, environment: environment) else {
            throw ValidationError("An OAuth 2.0 MVPD needs --client-secret-file or the environment variable \(Self.secretVariable).")
        }
        return secret
    }

    /// The settings: discovered from the issuer, or as given.
    func settings(_ service: EntitleService, clientSecret: String) async throws -> OAuth2MVPDSettings {
        var settings: OAuth2MVPDSettings
        if let issuer {
            settings = try await service.oauth2MVPDs.discover(issuer: issuer, clientID: clientID ?? "", clientSecret: clientSecret)
            if let logoutURL { settings.logoutURL = logoutURL }
        } else {
            settings = OAuth2MVPDSettings(
                authorizeURL: authorizeURL ?? "", tokenURL: tokenURL ?? "", userinfoURL: userinfoURL ?? "", logoutURL: logoutURL,
                clientID: clientID ?? "", clientSecret: clientSecret)
        }
        settings.scopes = scopes
        settings.userIDClaim = userIDClaim
        return settings
    }

    /// The service's public URL, as the MVPD must see it: `--public-url`, else the one the service is configured with
    /// (`service`'s, read from `ENTITLE_PUBLIC_URL` or the configuration file by ``StorageOptions``).
    func serviceURL(_ service: EntitleService) -> String {
        var url = publicURL ?? service.configuration.publicBaseURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension Admin.MVPD.Add {
    /// `mvpd add` for an OAuth 2.0 MVPD; prints the redirect URI to register at the MVPD.
    func addOAuth2MVPD(options: MVPDOptions) async throws {
        let secret = try oauth2.clientSecret()
        let (settings, serviceURL) = try await Admin.withService(admin) { service in
            let settings = try await oauth2.settings(service, clientSecret: secret)
            try await service.oauth2MVPDs.save(id: id, options: options, oauth2: settings, requestors: requestor, actor: Admin.cliActor)
            try await applyPreflight(service)
            return (settings, oauth2.serviceURL(service))
        }
        print("MVPD \(id): OAuth 2.0, authorization \(settings.authorizeURL), token \(settings.tokenURL), userinfo \(settings.userinfoURL)")
        print("Register this redirect URI at the MVPD: \(serviceURL)/adobe-services/oauth2")
        if settings.logoutURL != nil {
            print("Register this logout redirect URI at the MVPD: \(serviceURL)/adobe-services/oauth2/logout")
        }
    }
}

extension Admin.MVPD.Add {
    /// Sets `--preflight-max-resources` and `--preflight` on the MVPD's integration with each `--requestor` (recorded).
    func applyPreflight(_ service: EntitleService) async throws {
        for requestorID in requestor {
            if let limit = preflightMaxResources {
                try await service.integrations.setPreflight(requestor: requestorID, mvpd: id, maxResources: Int64(limit), actor: Admin.cliActor)
            }
            try await lineup.apply(service, requestor: requestorID, mvpd: id)
        }
    }
}
