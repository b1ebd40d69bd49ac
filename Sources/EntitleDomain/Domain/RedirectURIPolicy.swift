import EntitleCore

/// Redirect URI rules. Every redirect target taken from a request is parsed once (``RedirectURL``) and the answer is the
/// target to redirect to or store — the re-serialized parsed URL, never the raw input — or nil when it is not allowed:
/// an http(s) URL when its normalized form is a registered URI's, or (REST v1 and adobe-services) when its parsed host
/// is one of the requestor's domains or a subdomain of one; an app's custom-scheme URI only by exact match.
package enum RedirectURIPolicy {
    /// Whether a URI may be registered in a software statement: an http(s) URL ``RedirectURL`` accepts, or an app URI
    /// (``RedirectURL/isAppURI(_:)``).
    package static func isAcceptableRegistration(_ uri: String) -> Bool {
        RedirectURL(uri) != nil || RedirectURL.isAppURI(uri)
    }

    /// The target for `candidate` when it is a registered URI (also ignoring one trailing slash): an http(s) URL
    /// compared and returned in its normalized form, an app URI compared exactly and returned as sent.
    package static func allowedTarget(_ candidate: String, registered: [String]) -> String? {
        func sameIgnoringTrailingSlash(_ a: String, _ b: String) -> Bool { a == b || a + "/" == b || a == b + "/" }
        if let url = RedirectURL(candidate) {
            let target = url.description
            return registered.contains { RedirectURL($0).map { sameIgnoringTrailingSlash($0.description, target) } ?? false } ? target : nil
        }
        guard RedirectURL.isAppURI(candidate) else { return nil }
        return registered.contains { sameIgnoringTrailingSlash($0, candidate) } ? candidate : nil
    }

    /// The target for a redirect URL taken from a request when it is a URI registered for the app or a URL on the
    /// requestor's domains: the check of every browser leg that sends the user agent back to the app.
    package static func allowedTarget(_ candidate: String, registered: [String], domains: [String]) -> String? {
        allowedTarget(candidate, registered: registered) ?? domainTarget(candidate, domains: domains)
    }

    /// The normalized form of `candidate` when it is an http(s) URL whose parsed host is one of `domains` or a
    /// subdomain of one.
    package static func domainTarget(_ candidate: String, domains: [String]) -> String? {
        guard let url = RedirectURL(candidate), domains.contains(where: { url.isOn(domain: $0) }) else { return nil }
        return url.description
    }
}
