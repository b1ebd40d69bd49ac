import ArgumentParser
import Foundation

extension Serve {
    /// The loud warning printed when the demo world (public demo logins, a TempPass that needs no login) would be
    /// reachable from other machines: the demo is on and `--host` is not a loopback address. Nil otherwise.
    static func demoExposureWarning(host: String, demo: Bool) -> String? {
        guard demo, !isLoopback(host) else { return nil }
        return """
            WARNING: the demo world is on and the service listens on \(host), reachable from other machines.
            WARNING: anyone can sign in as alice/alice-pass and watch through a TempPass that needs no login, for requestor REF.
            WARNING: for production start `entitle serve --no-demo` (see docs/operator-guide.md).
            """
    }

    /// Whether a listen address is loopback only.
    static func isLoopback(_ host: String) -> Bool {
        let trimmed = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return trimmed == "localhost" || trimmed == "::1" || trimmed.hasPrefix("127.")
    }

    /// Checks `--public-url`: an absolute http(s) URL with a host and nothing after the path (no query, fragment or
    /// userinfo); https unless its host is loopback, the demo is on, or `--allow-insecure-public-url`; and required
    /// when the service listens beyond loopback without the demo (the SAML entity id, redirects and links are built
    /// from it, so a guessed `http://0.0.0.0:8080` would be published to every MVPD).
    static func validatePublicURL(_ publicURL: String?, host: String, demo: Bool, allowInsecure: Bool) throws {
        guard let publicURL else {
            guard demo || isLoopback(host) else {
                throw ValidationError(
                    "--public-url is required when the service listens on \(host) without the demo: give the https URL clients and MVPDs reach it by (e.g. --public-url https://tve.example.com)."
                )
            }
            return
        }
        let problem = "--public-url \"\(publicURL)\" is not an absolute http(s) URL such as https://tve.example.com"
        guard let components = URLComponents(string: publicURL), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { throw ValidationError(problem + ".") }
        guard let urlHost = components.host, !urlHost.isEmpty, !publicURL.contains(where: { $0.isWhitespace || $0 == "\\" }) else {
            throw ValidationError(problem + ": it has no host.")
        }
        guard components.user == nil, components.password == nil, components.query == nil, components.fragment == nil else {
            throw ValidationError(problem + ": it may not carry a user, a query or a fragment.")
        }
        if scheme == "http" && !isLoopback(urlHost) && !demo && !allowInsecure {
            throw ValidationError(
                "--public-url \"\(publicURL)\" is http on a non-loopback host: clients would send tokens in clear. Use https (TLS at the proxy, docs/deployment.md), or --allow-insecure-public-url for a test network."
            )
        }
    }

    /// Whether the service is reachable only from this machine: it listens on loopback and its public URL (if any) is
    /// on loopback too (behind a proxy with a public name, it is not).
    static func isLocal(host: String, publicURL: String?) -> Bool {
        guard isLoopback(host) else { return false }
        guard let publicURL else { return true }
        return URLComponents(string: publicURL)?.host.map(isLoopback) ?? false
    }

    /// The warning printed when the service is not local and the console, admin API and metrics therefore are not
    /// served at all (no `--admin-port`, no `--operations-on-public-port`). Nil otherwise.
    static func operationsWarning(host: String, publicURL: String?, adminPort: Int?, operationsOnPublicPort: Bool) -> String? {
        guard adminPort == nil, !operationsOnPublicPort, !isLocal(host: host, publicURL: publicURL) else { return nil }
        return """
            WARNING: the console (/console), the admin API (/admin/api) and /metrics are not served: the service port is public \
            (--host \(host)\(publicURL.map { ", --public-url \($0)" } ?? "")). Give them an operations address on loopback with \
            --admin-port PORT (docs/production-checklist.md), or --operations-on-public-port on a private network.
            """
    }

    /// The settings that do not have their default value, each with where it came from (`port=8080 (file
    /// /etc/entitle/entitle.yaml)`), secrets masked: the start banner's account of the configuration in effect.
    static func settingSources() -> [String] {
        let arguments = Array(CommandLine.arguments.drop { $0 != "serve" }.dropFirst())
        guard let resolved = try? ServeConfiguration.resolve(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        else { return [] }
        return resolved.settings.compactMap { item in
            let source: String
            switch item.source {
            case .default: return nil
            case .flag: source = "flag"
            case .environment(let name): source = "environment \(name)"
            case .file(let path): source = "file \(path)"
            }
            let values = item.values.map { ServeConfiguration.masked($0, setting: item.setting.name) }.joined(separator: ",")
            return "\(item.setting.name)=\(values) (\(source))"
        }
    }
}
