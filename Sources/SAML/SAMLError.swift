import Foundation

/// An error raised by the SAML library: an open set of machine-readable `code`s plus a human `message`.
public struct SAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Machine-readable code, one of the static lets below (the set may grow).
    public let code: String
    /// Human-readable explanation; never contains secrets.
    public let message: String

    /// Creates an error with a code and a message.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// `SAMLError(<code>): <message>`.
    public var description: String { "SAMLError(\(code)): \(message)" }

    /// The XML could not be parsed, or it has a DOCTYPE, or its structure is not what SAML requires.
    public static let malformedXML = "malformedXML"
    /// Base64, URL or DEFLATE encoding is broken.
    public static let badEncoding = "badEncoding"
    /// A signature was required but none covers the message or assertion.
    public static let unsigned = "unsigned"
    /// A signature value does not verify with any trusted certificate, or the signature structure is wrong.
    public static let badSignature = "badSignature"
    /// The digest of the signed element does not match the signed DigestValue (content changed after signing).
    public static let badDigest = "badDigest"
    /// Two elements carry the same ID (signature wrapping attempt or broken producer).
    public static let duplicateID = "duplicateID"
    /// The issuer is not the expected entity.
    public static let wrongIssuer = "wrongIssuer"
    /// The assertion is not addressed to this service provider.
    public static let wrongAudience = "wrongAudience"
    /// Destination or Recipient is not this endpoint.
    public static let wrongDestination = "wrongDestination"
    /// The message or assertion is no longer valid.
    public static let expired = "expired"
    /// The assertion is not valid yet.
    public static let notYetValid = "notYetValid"
    /// InResponseTo does not match the request this service sent.
    public static let inResponseToMismatch = "inResponseToMismatch"
    /// An IdP-initiated (unsolicited) response arrived and those are not allowed.
    public static let unsolicited = "unsolicited"
    /// The IdP answered with a non-success status.
    public static let statusNotSuccess = "statusNotSuccess"
    /// The input exceeds a size limit.
    public static let tooLarge = "tooLarge"
    /// An algorithm (e.g. SHA-1, inclusive C14N) is not supported.
    public static let unsupportedAlgorithm = "unsupportedAlgorithm"
    /// A required element or attribute is missing.
    public static let missingElement = "missingElement"
    /// A key or certificate could not be read or created.
    public static let badKey = "badKey"

    static func malformed(_ message: String) -> SAMLError { SAMLError(code: malformedXML, message: message) }
    static func missing(_ message: String) -> SAMLError { SAMLError(code: missingElement, message: message) }
}
