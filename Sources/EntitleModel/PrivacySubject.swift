/// Whom a privacy request is about: one device (its raw device id, as the app sends it in `AP-Device-Identifier`) or
/// one MVPD user (the user id the MVPD gave at sign-in), optionally only at one requestor.
package struct PrivacySubject: Sendable, Equatable {
    /// The kind of identifier.
    package enum Kind: String, Sendable, Equatable, Codable {
        /// A device id.
        case device
        /// An MVPD user id.
        case user
    }

    /// The kind of identifier.
    package let kind: Kind
    /// The identifier, in clear (never recorded: the changes log keeps a keyed hash).
    package let identifier: String
    /// Only the records of this requestor (nil: every requestor).
    package let requestor: String?

    /// Creates the value from each of its stored properties.
    package init(kind: Kind, identifier: String, requestor: String? = nil) {
        self.kind = kind
        self.identifier = identifier
        self.requestor = requestor
    }
}

/// A value of a stored row as a privacy export shows it.
package enum PrivacyValue: Sendable, Equatable, Encodable {
    /// Text.
    case text(String)
    /// A whole number (times are Unix milliseconds).
    case integer(Int64)
    /// A number.
    case real(Double)
    /// NULL.
    case null
    /// A secret that is held but never shown (an encrypted refresh token, a PKCE verifier).
    case withheld

    /// Encodes the value as JSON's string, number or null; a withheld secret as the text `"(withheld)"`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .null: try container.encodeNil()
        case .withheld: try container.encode("(withheld)")
        }
    }
}

/// The rows of one table that concern a privacy subject.
package struct PrivacyTableRows: Sendable, Encodable {
    /// The table.
    package var table: String
    /// What the table holds, in a few words.
    package var holds: String
    /// The rows, column name to value.
    package var rows: [[String: PrivacyValue]]

    /// Creates the value from each of its stored properties.
    package init(table: String, holds: String, rows: [[String: PrivacyValue]]) {
        self.table = table
        self.holds = holds
        self.rows = rows
    }
}

/// One sign-in (profile) removed by a privacy erase: what the instance's in-memory caches are keyed by.
package struct ErasedSignIn: Sendable, Equatable {
    package var requestorId: String
    package var clientId: String
    package var deviceId: String
    package var mvpdId: String
    package var userId: String

    /// Creates the value from each of its stored properties.
    package init(requestorId: String, clientId: String, deviceId: String, mvpdId: String, userId: String) {
        self.requestorId = requestorId
        self.clientId = clientId
        self.deviceId = deviceId
        self.mvpdId = mvpdId
        self.userId = userId
    }
}

/// What a privacy erase removed from the database: rows per table, and the sign-ins it ended.
package struct PrivacyErasure: Sendable {
    /// Rows removed per table (tables with none are listed with 0).
    package var removed: [String: Int]
    /// Changes-log entries whose text named the identifier, rewritten without it.
    package var changesScrubbed: Int
    /// The sign-ins (profiles) removed.
    package var signIns: [ErasedSignIn]
    /// What was done so that the database file keeps no copy (SQLite: WAL checkpoint; PostgreSQL: VACUUM).
    package var storage: String

    /// Creates the value from each of its stored properties.
    package init(removed: [String: Int], changesScrubbed: Int, signIns: [ErasedSignIn], storage: String) {
        self.removed = removed
        self.changesScrubbed = changesScrubbed
        self.signIns = signIns
        self.storage = storage
    }
}
