import Foundation

/// An error raised by the SAML library: a machine-readable ``Code`` from an open set plus a human `message`.
public struct SAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason; new codes may be added.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name, such as `badSignature`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The XML could not be parsed, or it has a DOCTYPE, or its structure is not what SAML requires.
        public static let malformedXML = Code(rawValue: "malformedXML")
        /// Base64, URL or DEFLATE encoding is broken.
        public static let badEncoding = Code(rawValue: "badEncoding")
        /// A signature was required but none covers the message or assertion.
        public static let unsigned = Code(rawValue: "unsigned")
        /// A signature value does not verify with any trusted certificate, or the signature structure is wrong.
        public static let badSignature = Code(rawValue: "badSignature")
        /// The digest of the signed element does not match the signed DigestValue (content changed after signing).
        public static let badDigest = Code(rawValue: "badDigest")
        /// Two elements carry the same ID (signature wrapping attempt or broken producer).
        public static let duplicateID = Code(rawValue: "duplicateID")
        /// The issuer is not the expected entity.
        public static let wrongIssuer = Code(rawValue: "wrongIssuer")
        /// The assertion is not addressed to this service provider.
        public static let wrongAudience = Code(rawValue: "wrongAudience")
        /// Destination or Recipient is not this endpoint.
        public static let wrongDestination = Code(rawValue: "wrongDestination")
        /// The message or assertion is no longer valid.
        public static let expired = Code(rawValue: "expired")
        /// The assertion is not valid yet.
        public static let notYetValid = Code(rawValue: "notYetValid")
        /// InResponseTo does not match the request this service sent.
        public static let inResponseToMismatch = Code(rawValue: "inResponseToMismatch")
        /// An IdP-initiated (unsolicited) response arrived and those are not allowed.
        public static let unsolicited = Code(rawValue: "unsolicited")
        /// The IdP answered with a non-success status.
        public static let statusNotSuccess = Code(rawValue: "statusNotSuccess")
        /// The input exceeds a size limit.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// An algorithm (e.g. SHA-1, inclusive C14N) is not supported.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupportedAlgorithm")
        /// A required element or attribute is missing.
        public static let missingElement = Code(rawValue: "missingElement")
        /// A key or certificate could not be read or created.
        public static let badKey = Code(rawValue: "badKey")
    }

    /// The reason.
    public let code: Code
    /// Human-readable explanation; never contains secrets.
    public let message: String

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `SAMLError(<code>): <message>`.
    public var description: String { "SAMLError(\(code)): \(message)" }

    static func malformed(_ message: String) -> SAMLError { SAMLError(.malformedXML, message) }
    static func missing(_ message: String) -> SAMLError { SAMLError(.missingElement, message) }
}
