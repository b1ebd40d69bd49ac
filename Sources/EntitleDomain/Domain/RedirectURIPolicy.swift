import EntitleModel
import EntitleStorage
import Foundation

/// Redirect URI rules: exact match against the registered list; registered URIs must be absolute; REST v1 and
/// adobe-services also accept http(s) URLs on the requestor's domains.
package enum RedirectURIPolicy {
    /// Whether a URI may be registered in a software statement.
    package static func isAcceptableRegistration(_ uri: String) -> Bool {
        guard uri.count <= 2048, let url = URL(string: uri), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return !uri.contains(where: { $0.isWhitespace })
    }

    /// Whether `candidate` is allowed for a client: exact string match, also ignoring one trailing slash.
    package static func isAllowed(_ candidate: String, registered: [String]) -> Bool {
        registered.contains { $0 == candidate || $0 + "/" == candidate || $0 == candidate + "/" }
    }

    /// Whether a redirect URL taken from a request is exactly a URI registered for the app, or a URL on the
    /// requestor's domains: the check of every browser leg that sends the user agent back to the app.
    package static func isAllowed(_ candidate: String, registered: [String], domains: [String]) -> Bool {
        isAllowed(candidate, registered: registered) || isDomainURL(candidate, domains: domains)
    }

    /// Whether `url` is an http(s) URL on one of the requestor's domains (or a subdomain of one).
    package static func isDomainURL(_ url: String, domains: [String]) -> Bool {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = parsed.host?.lowercased()
        else { return false }
        return domains.contains { host == $0.lowercased() || host.hasSuffix("." + $0.lowercased()) }
    }
}
