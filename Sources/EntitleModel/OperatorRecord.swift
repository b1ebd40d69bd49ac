import Foundation

/// What an operator may do: read everything, or also change it.
package struct OperatorRole: RawRepresentable, Hashable, Sendable, Codable {
    /// The stored name: `read-only` or `read-write`.
    package let rawValue: String
    /// Creates a role from its name (check with ``isKnown``).
    package init(rawValue: String) { self.rawValue = rawValue }

    /// Sees everything, changes nothing.
    package static let readOnly = OperatorRole(rawValue: "read-only")
    /// Sees and changes everything.
    package static let readWrite = OperatorRole(rawValue: "read-write")
    /// Every role.
    package static let known: [OperatorRole] = [.readOnly, .readWrite]
    /// Whether the role is one of ``known``.
    package var isKnown: Bool { Self.known.contains(self) }
    /// Whether the role may change anything.
    package var mayChange: Bool { self == .readWrite }
}

/// An operator account of the admin API and the console.
package struct OperatorRecord: Sendable, Codable, Equatable {
    /// Login name.
    package var username: String
    /// ``OperatorPassword`` hash (never shown or logged).
    package var passwordHash: String
    /// `read-only` or `read-write`.
    package var role: String
    /// Disabled accounts cannot sign in; their sessions end.
    package var disabled: Int64
    /// When created, Unix milliseconds.
    package var createdAt: Int64

    /// Creates the value from each of its stored properties.
    package init(username: String, passwordHash: String, role: String, disabled: Int64, createdAt: Int64) {
        self.username = username
        self.passwordHash = passwordHash
        self.role = role
        self.disabled = disabled
        self.createdAt = createdAt
    }
}

/// A signed-in operator's session, found by the SHA-256 of its token.
package struct OperatorSessionRecord: Sendable, Codable, Equatable {
    /// SHA-256 (hex) of the session token; the token itself is never stored.
    package var tokenHash: String
    /// The operator.
    package var username: String
    /// The token a browser sends in `X-CSRF-Token` with every change.
    package var csrfToken: String
    /// When the session began, Unix milliseconds.
    package var createdAt: Int64
    /// The last request of the session, Unix milliseconds (idle expiry).
    package var lastSeenAt: Int64

    /// Creates the value from each of its stored properties.
    package init(tokenHash: String, username: String, csrfToken: String, createdAt: Int64, lastSeenAt: Int64) {
        self.tokenHash = tokenHash
        self.username = username
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}

/// An operator as the API and the changes log show one (no password hash).
package struct OperatorView: Codable, Sendable, Equatable {
    /// Login name.
    package var username: String
    /// Role.
    package var role: String
    /// Whether the account is disabled.
    package var disabled: Bool
    /// When created, ISO 8601.
    package var createdAt: String
    /// What the account is limited to; absent where not read, empty lists for an unscoped account.
    package var scope: OperatorScope?

    /// The view of an account.
    package init(_ record: OperatorRecord) {
        username = record.username
        role = record.role
        disabled = record.disabled != 0
        createdAt = Date(timeIntervalSince1970: Double(record.createdAt) / 1000).ISO8601Format()
    }
}
