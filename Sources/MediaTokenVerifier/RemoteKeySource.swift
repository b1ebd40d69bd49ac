import Foundation
import Synchronization

/// Trusted keys fetched from the service's published PEM bundle and refreshed periodically, for rotation.
///
/// Load once at start-up with ``load(from:fetcher:)`` (fails if the first fetch fails), hand the source to
/// ``MediaTokenVerifier/init(keys:clockSkew:replayGuard:maximumTokenLength:)``, and run
/// ``run(every:retryAfter:clock:)`` in a task (or a service group) to refresh. A failed refresh keeps the last
/// good keys. Reading ``currentKeys`` takes a lock for a moment and never waits for the network.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public final class RemoteKeySource: VerificationKeyProvider, Sendable {
    /// What the last refresh attempt did.
    public struct RefreshStatus: Sendable, Equatable {
        /// Whether the last attempt installed a key set.
        public var succeeded: Bool
        /// The error of the last attempt when it failed.
        public var error: String?
        /// How many keys are trusted now.
        public var keyCount: Int
    }

    private struct State {
        var keys: VerificationKeySet
        var status: RefreshStatus
        var started = 0
        var applied = 0
    }

    /// The bundle's address, such as `http://127.0.0.1:8080/keys/media-token`.
    public let url: URL
    private let fetcher: any KeyBundleFetcher
    private let state: Mutex<State>

    /// Creates a source with keys already known (for example from a file) that will be replaced by refreshes.
    public init(url: URL, initialKeys: VerificationKeySet, fetcher: any KeyBundleFetcher = URLSessionKeyBundleFetcher()) {
        self.url = url
        self.fetcher = fetcher
        self.state = Mutex(State(keys: initialKeys, status: RefreshStatus(succeeded: true, error: nil, keyCount: initialKeys.keys.count)))
    }

    /// Fetches the bundle once and returns a source holding its keys; throws ``VerificationKeyError``.
    public static func load(from url: URL, fetcher: any KeyBundleFetcher = URLSessionKeyBundleFetcher()) async throws -> RemoteKeySource {
        let keys = try await fetch(url, with: fetcher)
        return RemoteKeySource(url: url, initialKeys: keys, fetcher: fetcher)
    }

    /// The keys trusted now.
    public var currentKeys: VerificationKeySet { state.withLock { $0.keys } }

    /// The outcome of the last refresh.
    public var lastRefresh: RefreshStatus { state.withLock { $0.status } }

    /// Fetches the bundle and installs its keys; on failure keeps the current keys, records and rethrows the error.
    /// When refreshes overlap, a slower older one never replaces the result of a newer one.
    @discardableResult
    public func refresh() async throws -> VerificationKeySet {
        let ticket = state.withLock { state -> Int in
            state.started += 1
            return state.started
        }
        do {
            let keys = try await Self.fetch(url, with: fetcher)
            return state.withLock { state in
                guard ticket > state.applied else { return state.keys }
                state.applied = ticket
                state.keys = keys
                state.status = RefreshStatus(succeeded: true, error: nil, keyCount: keys.allKeys.count)
                return keys
            }
        } catch {
            state.withLock { state in
                if ticket > state.applied {
                    state.status = RefreshStatus(succeeded: false, error: String(describing: error), keyCount: state.keys.allKeys.count)
                }
            }
            throw error
        }
    }

    /// Refreshes every `interval` (after a failure, every `retryAfter`) until the task is cancelled.
    public func run(
        every interval: Duration = .seconds(300), retryAfter: Duration = .seconds(30),
        clock: some Clock<Duration> = ContinuousClock()
    ) async {
        var delay = interval
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            do {
                try await refresh()
                delay = interval
            } catch {
                delay = retryAfter
            }
        }
    }

    private static func fetch(_ url: URL, with fetcher: any KeyBundleFetcher) async throws -> VerificationKeySet {
        let data = try await fetcher.fetchKeyBundle(from: url)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw VerificationKeyError(.invalidPEM, "key bundle from \(url.absoluteString) is not UTF-8 text")
        }
        do {
            return try VerificationKeySet(pem: text)
        } catch let error as VerificationKeyError {
            throw VerificationKeyError(error.code, "\(url.absoluteString): \(error.detail)")
        }
    }
}
