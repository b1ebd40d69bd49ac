import Crypto
import _CryptoExtras
import Foundation
import Synchronization

/// Where a new RSA-2048 key comes from.
package enum RSAKeySource: Sendable {
    /// A freshly generated key, always.
    case fresh
    /// A freshly generated key, unless this process is a test harness that called ``enableReuseInTests(poolSize:)``
    /// (or a debug build given `ENTITLE_TEST_RSA_KEY_POOL`): then one of a few keys, handed out in turn. A debug build
    /// of BoringSSL spends about a second on each RSA-2048 key, and a test suite starts hundreds of services. Only the
    /// service's own keys and the demo world's ask for these, where sharing one between test services, or between two
    /// purposes of one service, is harmless; a rotation never draws a key its purpose already publishes
    /// (``ServiceKeys/rotate(purpose:promoteAfter:)`` draws again).
    case reusableInTests

    /// The pool, when enabled: the keys made so far, how many to make, and which to hand out next.
    private static let pool = Mutex<(keys: [_RSA.Signing.PrivateKey], size: Int, next: Int)?>(nil)

    /// Test harnesses only: from now on ``reusableInTests`` hands out `poolSize` keys in turn, made on first use.
    package static func enableReuseInTests(poolSize: Int = 16) {
        pool.withLock { state in
            if state == nil { state = ([], max(1, poolSize), 0) }
        }
    }

    /// Debug builds only: the keys in the folder named by `ENTITLE_TEST_RSA_KEY_POOL` (PEM files, made by
    /// `scripts/test.sh`), so that every process of a test run, the `entitle` processes the tests start too, reuses
    /// them for ``reusableInTests``. A release build never reads it.
    private static let keysFromTestFolder: [_RSA.Signing.PrivateKey] = {
        #if DEBUG
        guard let folder = ProcessInfo.processInfo.environment["ENTITLE_TEST_RSA_KEY_POOL"], !folder.isEmpty,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [] }
        return names.filter { $0.hasSuffix(".pem") }.sorted().compactMap { name in
            (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)).flatMap { try? _RSA.Signing.PrivateKey(pemRepresentation: $0) }
        }
        #else
        return []
        #endif
    }()
    /// Which key of ``keysFromTestFolder`` is handed out next.
    private static let nextFromTestFolder = Atomic<Int>(0)

    /// A key from this source.
    package func privateKey() throws -> _RSA.Signing.PrivateKey {
        if case .reusableInTests = self, !Self.keysFromTestFolder.isEmpty {
            let index = Self.nextFromTestFolder.wrappingAdd(1, ordering: .relaxed).oldValue
            return Self.keysFromTestFolder[index % Self.keysFromTestFolder.count]
        }
        if case .reusableInTests = self {
            let reused: _RSA.Signing.PrivateKey? = Self.pool.withLock { state in
                guard var current = state, current.keys.count >= current.size else { return nil }
                defer { current.next += 1; state = current }
                return current.keys[current.next % current.size]
            }
            if let reused { return reused }
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        if case .reusableInTests = self {
            Self.pool.withLock { state in
                if var current = state, current.keys.count < current.size {
                    current.keys.append(key)
                    state = current
                }
            }
        }
        return key
    }
}
