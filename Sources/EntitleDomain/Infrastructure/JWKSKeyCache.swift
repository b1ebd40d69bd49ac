import AsyncHTTPClient
import EntitleCore
import Foundation
import Logging
import NIOCore

/// The keys of SSO issuers that publish a JWKS, fetched on first use and kept: fresh for ``freshFor``; a token naming
/// a `kid` the kept set lacks fetches again, at most once per ``minimumRefetch`` per URL; a failed fetch keeps the last
/// good set for up to ``keepStaleFor``. One fetch at a time per URL; answers larger than 256 KiB, slower than 5 s or
/// not HTTP 200 are failures.
package actor JWKSKeyCache {
    /// How long a fetched set is used without fetching again.
    package static let freshFor: Duration = .seconds(600)
    /// The shortest time between two fetches of one URL.
    package static let minimumRefetch: Duration = .seconds(30)
    /// How long a set is used after fetching it again failed.
    package static let keepStaleFor: Duration = .seconds(86_400)
    /// The most URLs kept.
    package static let capacity = 256

    private struct Entry {
        var keys: [SSOVerificationKey]
        var fetchedAt: ContinuousClock.Instant?
        var attemptedAt: ContinuousClock.Instant
    }

    /// Fetches a JWKS document's bytes.
    private let fetch: @Sendable (String) async throws -> Data
    private var entries: [String: Entry] = [:]
    private var inFlight: [String: Task<[SSOVerificationKey]?, Never>] = [:]
    private let clock = ContinuousClock()

    /// A cache that fetches with `fetch`.
    package init(fetch: @escaping @Sendable (String) async throws -> Data) { self.fetch = fetch }

    /// A cache that fetches over HTTP(S) with `httpClient`.
    package init(httpClient: HTTPClient) {
        self.init { url in
            let response = try await httpClient.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            guard response.status == .ok else { throw SSOTokenRefusal("the JWKS URL answered HTTP \(response.status.code)") }
            return Data(buffer: try await response.body.collect(upTo: 256 * 1024))
        }
    }

    /// The keys published at `url`, fetched again when stale or when none has `kid`.
    package func keys(url: String, kid: String?, logger: Logger) async -> [SSOVerificationKey] {
        let now = clock.now
        if let entry = entries[url], let fetchedAt = entry.fetchedAt, now - fetchedAt < Self.freshFor,
            kid == nil || entry.keys.contains(where: { $0.kid == kid || $0.kid == nil })
        {
            return entry.keys
        }
        if let entry = entries[url], now - entry.attemptedAt < Self.minimumRefetch {
            return usable(entry, now: now)
        }
        let task: Task<[SSOVerificationKey]?, Never>
        if let running = inFlight[url] {
            task = running
        } else {
            if entries.count >= Self.capacity, entries[url] == nil { entries.removeAll() }
            entries[url, default: Entry(keys: [], fetchedAt: nil, attemptedAt: now)].attemptedAt = now
            let fetch = self.fetch
            task = Task {
                do {
                    return try SSOVerificationKey.keys(jwks: try await fetch(url))
                } catch {
                    logger.warning("SSO issuer JWKS fetch failed", metadata: ["url": "\(url)", "error": "\(error)"])
                    return nil
                }
            }
            inFlight[url] = task
        }
        let fetched = await task.value
        inFlight[url] = nil
        if let fetched {
            entries[url] = Entry(keys: fetched, fetchedAt: clock.now, attemptedAt: clock.now)
            return fetched
        }
        return entries[url].map { usable($0, now: clock.now) } ?? []
    }

    /// Forgets every kept set (the issuers changed).
    package func removeAll() { entries.removeAll() }

    private func usable(_ entry: Entry, now: ContinuousClock.Instant) -> [SSOVerificationKey] {
        guard let fetchedAt = entry.fetchedAt, now - fetchedAt < Self.keepStaleFor else { return [] }
        return entry.keys
    }
}
