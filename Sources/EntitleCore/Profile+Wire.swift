/// Answer of the profile endpoints: profiles keyed by MVPD id.
public struct ProfilesResponse: Codable, Sendable, Equatable {
    /// Profiles by MVPD id.
    public var profiles: [String: Profile]
    /// Creates a profiles answer.
    public init(profiles: [String: Profile]) { self.profiles = profiles }
}

/// An authenticated profile (the v2 name for an AuthN session).
public struct Profile: Codable, Sendable, Equatable {
    /// Validity start, epoch ms.
    public var notBefore: Int64
    /// Validity end, epoch ms.
    public var notAfter: Int64
    /// Who issued it: the MVPD id, or `Adobe`-style service issuer for TempPass and degraded profiles.
    public var issuer: String
    /// How the profile came about (``ProfileType/regular``, ``ProfileType/temporary``, ``ProfileType/degraded``, …).
    public var type: ProfileType
    /// User metadata.
    public var attributes: [String: ProfileAttribute]

    /// Creates a profile.
    public init(notBefore: Int64, notAfter: Int64, issuer: String, type: ProfileType, attributes: [String: ProfileAttribute]) {
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.issuer = issuer
        self.type = type
        self.attributes = attributes
    }
}

/// One user-metadata value: plain JSON value or an encrypted string.
public struct ProfileAttribute: Codable, Sendable, Equatable {
    /// The value: a string, number or array of strings when plain; Base64 ciphertext when `state` is `enc`.
    public var value: JSONValue
    /// ``State/plain`` or ``State/encrypted``.
    public var state: State
    /// Creates an attribute.
    public init(value: JSONValue, state: State = .plain) {
        self.value = value
        self.state = state
    }

    /// Whether a user-metadata value is sent as is or encrypted for the programmer: the `state` of an attribute.
    ///
    /// An ``OpenCode``: a newer service may answer states this version does not know; they decode unchanged.
    public struct State: OpenCode {
        /// The state as written on the wire.
        public let rawValue: String
        /// Creates a state from its wire text.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The value is plain JSON.
        public static let plain = State(rawValue: "plain")
        /// The value is Base64 ciphertext for the programmer's key (`enc`).
        public static let encrypted = State(rawValue: "enc")
    }
}

/// A small JSON value type for user metadata.
public enum JSONValue: Codable, Sendable, Equatable {
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// An array.
    case array([JSONValue])
    /// An object, such as `maxRating` `{"MPAA": "PG-13", "VCHIP": "TV-Y"}`.
    case object([String: JSONValue])

    /// Decodes a string, number, bool, array or object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
}
