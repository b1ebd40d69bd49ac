/// Why verification keys could not be loaded. Codes form an open set.
public struct VerificationKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason; new codes may be added.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A file or URL could not be read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The text holds no PEM block, or a block is not valid PEM/DER.
        public static let invalidPEM = Code(rawValue: "invalidPEM")
        /// A key is not RSA, P-256 or Ed25519, an RSA key is shorter than 2048 bits, or a block is a private key.
        public static let unsupportedKey = Code(rawValue: "unsupportedKey")
        /// No key at all was supplied.
        public static let noKeys = Code(rawValue: "noKeys")
        /// More keys than ``VerificationKeySet/maximumKeyCount``.
        public static let tooManyKeys = Code(rawValue: "tooManyKeys")
        /// The key endpoint answered with an error status, a wrong size, or not at all.
        public static let fetchFailed = Code(rawValue: "fetchFailed")
    }

    /// The reason.
    public let code: Code
    /// A human-readable explanation (names the file, URL or PEM block; never key material).
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`.
    public var description: String { "\(code.rawValue): \(detail)" }
}
