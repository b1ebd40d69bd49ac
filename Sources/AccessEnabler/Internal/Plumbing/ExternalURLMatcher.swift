import Foundation

/// Decides whether a URL handed to `handleExternalURL` is the end of a login or logout flow: `adobepass://ios.app`
/// (with or without a trailing slash, any query), the legacy `http(s)://adobepass.ios.app/…`, or one of the app's
/// registered custom-scheme redirect URLs. Anything else is ignored.
struct ExternalURLMatcher: Sendable {
    /// The app's own redirect URLs (registered custom schemes).
    var customRedirects: [String]

    func matches(_ text: String) -> Bool {
        guard let candidate = Self.normalized(text) else { return false }
        if candidate.scheme == "adobepass", candidate.host == "ios.app", candidate.path.isEmpty { return true }
        if candidate.scheme == "http" || candidate.scheme == "https", candidate.host == "adobepass.ios.app" { return true }
        for redirect in customRedirects {
            guard let expected = Self.normalized(redirect) else { continue }
            if candidate.scheme == expected.scheme, candidate.host == expected.host, candidate.path == expected.path { return true }
        }
        return false
    }

    /// The `error` query or fragment parameter of a completion URL (`adobepass://ios.app?error=access_denied`).
    static func errorParameter(_ text: String) -> String? {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        if let error = components.queryItems?.first(where: { $0.name == "error" })?.value { return error }
        if let fragment = components.fragment, let items = URLComponents(string: "?" + fragment)?.queryItems,
            let error = items.first(where: { $0.name == "error" })?.value
        {
            return error
        }
        return nil
    }

    private struct Parts: Equatable {
        var scheme: String
        var host: String
        var path: String
    }

    private static func normalized(_ text: String) -> Parts? {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            let scheme = components.scheme?.lowercased(), !scheme.isEmpty
        else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        return Parts(scheme: scheme, host: (components.host ?? "").lowercased(), path: path)
    }
}
