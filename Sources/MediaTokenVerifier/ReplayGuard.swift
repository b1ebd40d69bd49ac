import Crypto
import Foundation

/// A store that makes media tokens one-time use: a token accepted once is refused again within its lifetime.
///
/// Implement it on a shared backend so that every video-server instance sees the same uses, for example
/// PostgreSQL `INSERT INTO used_media_tokens(key, expires) VALUES ($1, $2) ON CONFLICT DO NOTHING` (first use when
/// one row was inserted; delete rows whose `expires` is past now and then), or Redis `SET key 1 PXAT expiry NX`.
public protocol ReplayGuard: Sendable {
    /// Records the first use of `key` and remembers it until `expiry`.
    /// Returns `true` for a first use and `false` when the key was already used and not yet forgotten.
    /// Throws when the store cannot answer; the verifier then refuses the token with `unknownError`.
    func claimFirstUse(of key: ReplayKey, until expiry: Date, now: Date) async throws -> Bool
}

/// The identity of a token for replay detection: SHA-256 of the signed body bytes, as 64 lowercase hex digits.
/// Keyed on the body (not the Base64 text or the signature), so re-encodings of one token are the same use.
public struct ReplayKey: Sendable, Hashable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hex: String
    /// Wraps a hex digest.
    public init(hex: String) { self.hex = hex }

    /// The key of a token with these exact body bytes.
    public init(body: Data) {
        self.init(digest: SHA256.hash(data: body))
    }

    /// The key for a body's SHA-256 digest.
    public init(digest: SHA256.Digest) {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        hex = String(decoding: out, as: UTF8.self)
    }
    /// The hex digest.
    public var description: String { hex }
}

/// Why a replay store failed. Codes form an open set.
public struct ReplayGuardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason; new codes may be added.
    public struct Code: Sendable, Hashable, RawRepresentable {
        /// The code's name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The store holds its maximum number of unexpired entries.
        public static let full = Code(rawValue: "full")
        /// The backing store is unreachable or failed.
        public static let unavailable = Code(rawValue: "unavailable")
    }

    /// The reason.
    public let code: Code
    /// A human-readable explanation.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`.
    public var description: String { "\(code.rawValue): \(detail)" }
}
