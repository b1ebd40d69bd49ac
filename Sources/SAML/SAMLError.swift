import Foundation

/// An error raised by the SAML library: a machine-readable ``Code`` from an open set plus a human `message`.
package struct SAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A machine-readable reason; new codes may be added.
    package struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name, such as `badSignature`.
        package let rawValue: String
        /// Creates a code from its name.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        package var description: String { rawValue }

        /// The XML could not be parsed, or it has a DOCTYPE, or its structure is not what SAML requires.
        package static let malformedXML = Code(rawValue: "malformedXML")
        /// Base64, URL or DEFLATE encoding is broken.
        package static let badEncoding = Code(rawValue: "badEncoding")
        /// A signature was required but none covers the message or assertion.
        package static let unsigned = Code(rawValue: "unsigned")
        /// A signature value does not verify with any trusted certificate, or the signature structure is wrong.
        package static let badSignature = Code(rawValue: "badSignature")
        /// The digest of the signed element does not match the signed DigestValue (content changed after signing).
        package static let badDigest = Code(rawValue: "badDigest")
        /// Two elements carry the same ID (signature wrapping attempt or broken producer).
        package static let duplicateID = Code(rawValue: "duplicateID")
        /// The issuer is not the expected entity.
        package static let wrongIssuer = Code(rawValue: "wrongIssuer")
        /// The assertion is not addressed to this service provider.
        package static let wrongAudience = Code(rawValue: "wrongAudience")
        /// Destination or Recipient is not this endpoint.
        package static let wrongDestination = Code(rawValue: "wrongDestination")
        /// The message or assertion is no longer valid.
        package static let expired = Code(rawValue: "expired")
        /// The assertion is not valid yet.
        package static let notYetValid = Code(rawValue: "notYetValid")
        /// InResponseTo does not match the request this service sent.
        package static let inResponseToMismatch = Code(rawValue: "inResponseToMismatch")
        /// An IdP-initiated (unsolicited) response arrived and those are not allowed.
        package static let unsolicited = Code(rawValue: "unsolicited")
        /// The IdP answered with a non-success status.
        package static let statusNotSuccess = Code(rawValue: "statusNotSuccess")
        /// The input exceeds a size limit.
        package static let tooLarge = Code(rawValue: "tooLarge")
        /// An algorithm (e.g. SHA-1, inclusive C14N) is not supported.
        package static let unsupportedAlgorithm = Code(rawValue: "unsupportedAlgorithm")
        /// A required element or attribute is missing.
        package static let missingElement = Code(rawValue: "missingElement")
        /// A key or certificate could not be read or created.
        package static let badKey = Code(rawValue: "badKey")
    }

    /// The reason.
    package let code: Code
    /// Human-readable explanation; never contains secrets.
    package let message: String

    /// Creates an error with a code and a message.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `SAMLError(<code>): <message>`.
    package var description: String { "SAMLError(\(code)): \(message)" }

    static func malformed(_ message: String) -> SAMLError { SAMLError(.malformedXML, message) }
    static func missing(_ message: String) -> SAMLError { SAMLError(.missingElement, message) }
}
