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
}
