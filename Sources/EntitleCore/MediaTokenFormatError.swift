import Foundation

/// Why a serialized short media token could not be read or written. Codes form an open set.
public struct MediaTokenFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason; new codes may be added.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name, such as `notBase64`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The serialized token is longer than the accepted maximum.
        public static let tooLong = Code(rawValue: "tooLong")
        /// The serialized token (or the signature inside it) is not strict Base64.
        public static let notBase64 = Code(rawValue: "notBase64")
        /// The decoded token does not have the `<signatureInfo>SIG<signatureInfo>BODY` shape.
        public static let missingSignatureInfo = Code(rawValue: "missingSignatureInfo")
        /// The body is not a well-formed `<shortAuthorizationToken>` element of the fixed format.
        public static let malformedBody = Code(rawValue: "malformedBody")
        /// The body contains an element that is not one of the seven token fields.
        public static let unknownElement = Code(rawValue: "unknownElement")
        /// A token field appears more than once.
        public static let duplicateElement = Code(rawValue: "duplicateElement")
        /// A token field is missing.
        public static let missingElement = Code(rawValue: "missingElement")
        /// `ttl` or `issueTime` is not a non-negative decimal number of at most 18 digits.
        public static let invalidNumber = Code(rawValue: "invalidNumber")
        /// A value is not valid UTF-8 XML text (bad entity, control character, bad encoding).
        public static let invalidText = Code(rawValue: "invalidText")
        /// A field value cannot be written into a token (negative number, character XML forbids).
        public static let invalidValue = Code(rawValue: "invalidValue")
    }

    /// The reason.
    public let code: Code
    /// A fixed human-readable explanation (never contains token content).
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`.
    public var description: String { "\(code.rawValue): \(detail)" }
}
