import EntitleCore
import EntitleModel
import Foundation

/// Why an SSO token was not taken: a fixed reason for the log (never the token itself).
package struct SSOTokenRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was wrong, for the log.
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A signed SSO token (JWS compact serialization) as read, before its signature and claims are checked: the header's
/// `alg` and `kid`, the claims Entitle reads, and the bytes signed.
package struct SSOToken: Sendable {
    /// `RS256` or `ES256`.
    package let algorithm: String
    /// The key id of the header.
    package let kid: String?
    /// `iss`.
    package let issuer: String
    /// `sub`.
    package let subject: String?
    /// `aud` (a string or an array of strings).
    package let audiences: [String]
    /// `exp`, `nbf`, `iat` in seconds since 1970.
    package let expires: Double?
    package let notBefore: Double?
    package let issuedAt: Double?
    /// `header.payload` as sent.
    package let signingInput: Data
    /// The signature's bytes.
    package let signature: Data

    /// The largest token read (a header value).
    package static let maximumLength = 16 * 1024
    /// The clock skew allowed on `exp`, `nbf` and `iat`, seconds.
    package static let skewSeconds: Double = 60
    /// The audience a service token must name when the issuer sets none (Adobe's AD-Service-Token documentation).
    package static let defaultServiceTokenAudience = "adobe"

    /// Reads a compact JWS; a JWE (five parts), an unsigned token or another algorithm is refused.
    package static func parse(_ text: String) throws(SSOTokenRefusal) -> SSOToken {
        guard text.utf8.count <= maximumLength else { throw SSOTokenRefusal("the token is longer than \(maximumLength) bytes") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 5 {
            throw SSOTokenRefusal("the token is encrypted (JWE); Entitle verifies signed tokens (JWS) only")
        }
        guard parts.count == 3 else { throw SSOTokenRefusal("the token is not a compact JWS (three dot-separated parts)") }
        guard let headerData = Data(base64URLEncoded: String(parts[0])), let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw SSOTokenRefusal("the token's header is not Base64url JSON") }
        guard let algorithm = header.alg else { throw SSOTokenRefusal("the token's header names no algorithm") }
        guard algorithm == "RS256" || algorithm == "ES256" else {
            throw SSOTokenRefusal("the token's algorithm \(algorithm.prefix(16)) is not RS256 or ES256")
        }
        guard header.crit == nil else { throw SSOTokenRefusal("the token's header has critical extensions") }
        guard let payloadData = Data(base64URLEncoded: String(parts[1])) else { throw SSOTokenRefusal("the token's payload is not Base64url") }
        let claims: Claims
        do { claims = try JSONDecoder().decode(Claims.self, from: payloadData) } catch {
            throw SSOTokenRefusal("the token's payload is not a JSON object with claims of the registered types")
        }
        guard let signature = Data(base64URLEncoded: String(parts[2])), !signature.isEmpty else {
            throw SSOTokenRefusal("the token's signature is not Base64url")
        }
        guard let issuer = claims.iss, !issuer.isEmpty else { throw SSOTokenRefusal("the token has no iss claim") }
        return SSOToken(
            algorithm: algorithm, kid: header.kid, issuer: issuer, subject: claims.sub, audiences: claims.aud?.values ?? [],
            expires: claims.exp, notBefore: claims.nbf, issuedAt: claims.iat,
            signingInput: Data(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count)), signature: signature)
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
        var crit: [String]?
    }

    /// The registered claims Entitle reads; `aud` is a string or an array of strings, times are numbers.
    private struct Claims: Decodable {
        var iss: String?
        var sub: String?
        var aud: Audience?
        var exp: Double?
        var nbf: Double?
        var iat: Double?
    }

    private struct Audience: Decodable {
        var values: [String]
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { values = [one] } else { values = try container.decode([String].self) }
        }
    }

    /// Whether one of `keys` (those of the header's `kid` first, when it names one) signed the token.
    package func isSigned(byOneOf keys: [SSOVerificationKey]) -> Bool {
        let candidates = keys.filter { $0.algorithm == algorithm && (kid == nil || $0.kid == nil || $0.kid == kid) }
        return candidates.contains { $0.verifies(signature, input: signingInput, algorithm: algorithm) }
    }

    /// Checks the claims against the issuer at `now` (ms): audience, `exp` (required), `nbf`, `iat`, and a subject.
    /// Returns the subject.
    package func checkClaims(for issuer: SSOIssuerRecord, now: Int64) throws(SSOTokenRefusal) -> String {
        let seconds = Double(now) / 1000, skew = Self.skewSeconds
        let audience = issuer.audience ?? (issuer.type == .serviceToken ? Self.defaultServiceTokenAudience : nil)
        if let audience {
            let matches =
                issuer.audience == nil
                ? audiences.contains { $0.lowercased() == audience } : audiences.contains(audience)
            guard matches else { throw SSOTokenRefusal("the token's audience is not \(audience)") }
        }
        guard let expires else { throw SSOTokenRefusal("the token has no exp claim") }
        guard seconds <= expires + skew else { throw SSOTokenRefusal("the token expired") }
        if let notBefore, seconds < notBefore - skew { throw SSOTokenRefusal("the token is not valid yet (nbf)") }
        if let issuedAt, issuedAt > seconds + skew { throw SSOTokenRefusal("the token was issued in the future (iat)") }
        guard let subject, !subject.isEmpty, subject.utf8.count <= 1024 else { throw SSOTokenRefusal("the token has no usable sub claim") }
        return subject
    }

    package init(
        algorithm: String, kid: String?, issuer: String, subject: String?, audiences: [String], expires: Double?, notBefore: Double?,
        issuedAt: Double?, signingInput: Data, signature: Data
    ) {
        self.algorithm = algorithm
        self.kid = kid
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
        self.expires = expires
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.signingInput = signingInput
        self.signature = signature
    }
}
