import Foundation

/// Where the SDK keeps what must survive a restart: client credentials, the device id and the authentication
/// state. Three methods, keys are short ASCII names.
public protocol TokenStore: Sendable {
    /// The data stored under `key`, or nil.
    func load(_ key: String) async throws -> Data?
    /// Stores `data` under `key`, replacing what was there.
    func save(_ data: Data, for key: String) async throws
    /// Removes `key` (no error when absent).
    func remove(_ key: String) async throws
}

/// A ``TokenStore`` in memory (tests, or apps that must not persist anything).
public final class InMemoryTokenStore: TokenStore {
    private let values = Locked<[String: Data]>([:])

    /// Creates an empty store, or one holding `initial`.
    public init(_ initial: [String: Data] = [:]) { values.withLock { $0 = initial } }

    /// The data under `key`.
    public func load(_ key: String) async throws -> Data? { values.withLock { $0[key] } }
    /// Stores `data`.
    public func save(_ data: Data, for key: String) async throws { values.withLock { $0[key] = data } }
    /// Removes `key`.
    public func remove(_ key: String) async throws { values.withLock { _ = $0.removeValue(forKey: key) } }
    /// The keys currently stored (for tests and diagnostics).
    public var keys: [String] { values.withLock { Array($0.keys).sorted() } }
}
