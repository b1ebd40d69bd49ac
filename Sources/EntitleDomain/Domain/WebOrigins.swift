import EntitleCore
import EntitleModel
import EntitleStorage

/// A browser's `Origin` header, parsed once, and whether it is on a requestor's registered domains.
///
/// The rule (docs/web-and-server-apps.md): the header must be exactly the serialization of an origin — `https://host`
/// or `https://host:port` as a browser sends it (lower-case, no default port, no path, no trailing slash; parsed by
/// ``RedirectURL``'s strict rules, so no userinfo, IDN, `%`, IPv6 literal or unusual IPv4 form), and its host must be a
/// registered domain or a subdomain of one, at a label boundary (`www.mynet.example` is on `mynet.example`,
/// `evilmynet.example` is not; an IPv4 address only as itself), the same rule as the redirect URLs on a requestor's
/// domains and Adobe's ("avoid adding a subdomain if a more general domain exists"). `http` is accepted only for a
/// loopback host (`localhost`, `127.0.0.0/8`): a developer's page. `null` and anything else is no origin.
package struct WebOrigin: Sendable, Equatable {
    /// The parsed origin.
    package let url: RedirectURL

    /// The longest header value considered.
    package static let maximumLength = 300

    /// Parses an `Origin` header value; nil unless it is exactly an origin these rules accept.
    package init?(_ header: String) {
        guard header.utf8.count <= Self.maximumLength, let url = RedirectURL(header), url.path == "/", url.query == nil, url.fragment == nil,
            url.origin == header
        else { return nil }
        guard url.scheme == "https" || Self.isLoopback(url) else { return nil }
        self.url = url
    }

    /// The header value (the origin's serialization).
    package var serialization: String { url.origin }

    /// Whether the host is one of `domains` or a subdomain of one.
    package func isOn(anyOf domains: [String]) -> Bool {
        domains.contains { domain in !domain.hasPrefix(".") && url.isOn(domain: domain) }
    }

    /// Whether the URL's host is a loopback name or address (`localhost`, `127.x.y.z`; ``RedirectURL`` accepts only
    /// the canonical dotted-decimal form of an IPv4 address).
    package static func isLoopback(_ url: RedirectURL) -> Bool {
        url.host == "localhost" || (url.isIPAddress && url.host.hasPrefix("127."))
    }
}

/// Which browser origins may call the client APIs (CORS): for REST API v2 the origins on the domains of the requestor
/// in the path, for DCR the origins on any enabled requestor's domains. Reads the catalog through its cache; every
/// domain of every requestor is kept for one generation of the cache (a change reaches every instance within the
/// catalog's refresh bound).
package struct WebOrigins: Sendable {
    private let catalog: CatalogStore
    private let everyDomain: CatalogSlot<CatalogCache.Whole, [String]>

    /// The origins of `catalog`'s requestors.
    package init(catalog: CatalogStore) {
        self.catalog = catalog
        everyDomain = catalog.catalogCache.derivedSlot([String].self)
    }

    /// Whether `origin` may call the REST API v2 of `requestor` (unknown or disabled requestors allow none).
    package func allows(_ origin: WebOrigin, requestor: Substring) async -> Bool {
        guard Self.isRequestorID(requestor), let record = try? await catalog.requestor(id: String(requestor)) else { return false }
        return origin.isOn(anyOf: record.domains)
    }

    /// Whether `origin` is on the domains of any enabled requestor (DCR: the statement, and so the requestor, is in the
    /// body, which a preflight does not carry).
    package func allowsForAnyRequestor(_ origin: WebOrigin) async -> Bool {
        let catalog = catalog
        guard let domains = try? await catalog.cached(everyDomain, .table, { try await catalog.enabledRequestors().flatMap(\.domains) }) else {
            return false
        }
        return origin.isOn(anyOf: domains)
    }

    /// Whether `text` can be a requestor id (1-64 of `A-Z a-z 0-9 _ - .`, as ``RequestorOperations`` requires): other
    /// path components are not looked up.
    private static func isRequestorID(_ text: Substring) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
                    || byte == 0x2E
            }
    }
}

extension EntitleService {
    /// The browser origins of the requestors' registered domains, for the CORS answers of the service's router.
    package func makeWebOrigins() -> WebOrigins { WebOrigins(catalog: repository.catalogStore) }
}
