import Crypto
import EntitleCore
@testable import EntitleDomain
import EntitleModel
import Foundation
import Testing

/// SSO token checks without a service: the JWS is parsed, its signature verified with the registered keys (PEM or
/// JWKS, RS256 and ES256), and `iss`, `aud`, `exp`, `nbf`, `iat` and `sub` checked with 60 s of skew.
@Suite struct SSOTokenTests {
    static let now: Int64 = 1_800_000_000_000

    static func issuer(_ type: SSOIssuerType = .serviceToken, audience: String? = nil, keys: [String]) -> SSOIssuerRecord {
        SSOIssuerRecord(
            id: "i", type: type, issuer: "iss", audience: audience, publicKeys: keys, jwksURL: nil, requestors: ["REF"], createdAt: 0, updatedAt: 0)
    }

    func subject(_ token: String, _ issuer: SSOIssuerRecord, keys: [SSOVerificationKey], now: Int64 = now) throws -> String {
        let parsed = try SSOToken.parse(token)
        guard parsed.isSigned(byOneOf: keys) else { throw SSOTokenRefusal("signature") }
        return try parsed.checkClaims(for: issuer, now: now)
    }

    @Test func rs256AndES256TokensVerifyWithTheirPEMKeysOnly() throws {
        let rsa = try SSOTestIssuer.rsa(), ec = SSOTestIssuer.p256()
        let rsaKeys = try SSOVerificationKey.keys(pem: rsa.publicKeyPEM), ecKeys = try SSOVerificationKey.keys(pem: ec.publicKeyPEM)
        let claims = SSOTestIssuer.claims(iss: "iss", sub: "u1", now: Self.now)
        let issuer = Self.issuer(keys: [])
        #expect(try subject(try rsa.token(claims), issuer, keys: rsaKeys) == "u1")
        #expect(try subject(try ec.token(claims), issuer, keys: ecKeys) == "u1")
        #expect(throws: SSOTokenRefusal.self) { try subject(try rsa.token(claims), issuer, keys: ecKeys) }
        #expect(throws: SSOTokenRefusal.self) { try subject(try ec.token(claims), issuer, keys: rsaKeys) }
        #expect(throws: SSOTokenRefusal.self) { try subject(try SSOTestIssuer.rsa().token(claims), issuer, keys: rsaKeys) }
    }

    @Test func jwksKeysAreChosenByKid() throws {
        let one = try SSOTestIssuer.rsa(kid: "one"), two = SSOTestIssuer.p256(kid: "two")
        let keys = try SSOVerificationKey.keys(jwks: one.jwks) + SSOVerificationKey.keys(jwks: two.jwks)
        #expect(keys.map(\.kid) == ["one", "two"])
        let claims = SSOTestIssuer.claims(iss: "iss", sub: "u", now: Self.now)
        #expect(try subject(try one.token(claims), Self.issuer(keys: []), keys: keys) == "u")
        #expect(try subject(try two.token(claims), Self.issuer(keys: []), keys: keys) == "u")
        // A token naming another kid is not verified by a key with a different kid.
        #expect(throws: SSOTokenRefusal.self) { try subject(try one.token(claims, header: ["kid": "two"]), Self.issuer(keys: []), keys: keys) }
        #expect(throws: SSOVerificationKey.Invalid.self) { try SSOVerificationKey.keys(jwks: Data("[]".utf8)) }
    }

    @Test func timesAreCheckedWithSixtySecondsOfSkew() throws {
        let rsa = try SSOTestIssuer.rsa()
        let keys = try SSOVerificationKey.keys(pem: rsa.publicKeyPEM), issuer = Self.issuer(keys: [])
        let seconds = Self.now / 1000
        func token(_ changes: [String: Any]) throws -> String {
            try rsa.token(SSOTestIssuer.claims(iss: "iss", sub: "u", now: Self.now).merging(changes) { $1 })
        }
        #expect(try subject(try token(["exp": seconds - 59]), issuer, keys: keys) == "u")
        #expect(throws: SSOTokenRefusal("the token expired")) { try subject(try token(["exp": seconds - 61]), issuer, keys: keys) }
        #expect(try subject(try token(["nbf": seconds + 59]), issuer, keys: keys) == "u")
        #expect(throws: SSOTokenRefusal("the token is not valid yet (nbf)")) { try subject(try token(["nbf": seconds + 61]), issuer, keys: keys) }
        #expect(throws: SSOTokenRefusal("the token was issued in the future (iat)")) {
            try subject(try token(["iat": seconds + 61]), issuer, keys: keys)
        }
        #expect(throws: SSOTokenRefusal.self) { try subject(try token(["exp": "soon"]), issuer, keys: keys) }
    }

    @Test func audienceDefaultsToAdobeForServiceTokensOnly() throws {
        let rsa = try SSOTestIssuer.rsa()
        let keys = try SSOVerificationKey.keys(pem: rsa.publicKeyPEM)
        func token(aud: Any?) throws -> String {
            var claims = SSOTestIssuer.claims(iss: "iss", sub: "u", aud: nil, now: Self.now)
            if let aud { claims["aud"] = aud }
            return try rsa.token(claims)
        }
        let service = Self.issuer(keys: [])
        #expect(try subject(try token(aud: "adobe"), service, keys: keys) == "u")
        #expect(try subject(try token(aud: "Adobe"), service, keys: keys) == "u")
        #expect(try subject(try token(aud: ["x", "adobe"]), service, keys: keys) == "u")
        #expect(throws: SSOTokenRefusal.self) { try subject(try token(aud: nil), service, keys: keys) }
        #expect(throws: SSOTokenRefusal.self) { try subject(try token(aud: "entitle"), service, keys: keys) }
        let platform = Self.issuer(.roku, keys: [])
        #expect(try subject(try token(aud: nil), platform, keys: keys) == "u")
        let named = Self.issuer(.roku, audience: "entitle", keys: [])
        #expect(try subject(try token(aud: "entitle"), named, keys: keys) == "u")
        #expect(throws: SSOTokenRefusal.self) { try subject(try token(aud: "Entitle"), named, keys: keys) }
    }

    @Test func encryptedMalformedAndUnsignedTokensAreRefusedWithAReason() throws {
        #expect(throws: SSOTokenRefusal("the token is encrypted (JWE); Entitle verifies signed tokens (JWS) only")) {
            try SSOToken.parse("a.b.c.d.e")
        }
        for text in ["", "a.b", "....", "e30.e30.", "!!.e30.c2ln"] {
            #expect(throws: SSOTokenRefusal.self, "\(text)") { try SSOToken.parse(text) }
        }
        let none = Data(#"{"alg":"none"}"#.utf8).base64URLEncodedString() + "." + Data(#"{"iss":"x"}"#.utf8).base64URLEncodedString() + ".c2ln"
        #expect(throws: SSOTokenRefusal("the token's algorithm none is not RS256 or ES256")) { try SSOToken.parse(none) }
    }

    @Test func pemKeysAreCheckedWhenRegistered() throws {
        #expect(throws: SSOVerificationKey.Invalid.self) { try SSOVerificationKey.keys(pem: "hello") }
        let privatePEM = P256.Signing.PrivateKey().pemRepresentation
        #expect(throws: SSOVerificationKey.Invalid.self) { try SSOVerificationKey.keys(pem: privatePEM) }
        let both = try SSOTestIssuer.rsa().publicKeyPEM + "\n" + SSOTestIssuer.p256().publicKeyPEM
        #expect(try SSOVerificationKey.keys(pem: both).map(\.algorithm) == ["RS256", "ES256"])
    }
}
