import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// The SSO tokens a REST v2 request carried: Fire TV's platform identity (`Adobe-Subject-Token`), Roku's
/// (`X-Roku-Reserved-Roku-Connect-Token`) and a network's service token (`AD-Service-Token`).
package struct SingleSignOnTokens: Sendable {
    /// `Adobe-Subject-Token`.
    package var subjectToken: String?
    /// `X-Roku-Reserved-Roku-Connect-Token`.
    package var rokuToken: String?
    /// `AD-Service-Token`.
    package var serviceToken: String?

    package init(subjectToken: String? = nil, rokuToken: String? = nil, serviceToken: String? = nil) {
        (self.subjectToken, self.rokuToken, self.serviceToken) = (subjectToken, rokuToken, serviceToken)
    }

    /// Whether the request carried none.
    package var isEmpty: Bool { subjectToken == nil && rokuToken == nil && serviceToken == nil }

    /// Each token with the issuer type its header is for and the header's name (for the log).
    var presented: [(type: SSOIssuerType, header: String, token: String)] {
        var all: [(SSOIssuerType, String, String)] = []
        if let subjectToken, !subjectToken.isEmpty { all.append((.amazon, "Adobe-Subject-Token", subjectToken)) }
        if let rokuToken, !rokuToken.isEmpty { all.append((.roku, "X-Roku-Reserved-Roku-Connect-Token", rokuToken)) }
        if let serviceToken, !serviceToken.isEmpty { all.append((.serviceToken, "AD-Service-Token", serviceToken)) }
        return all
    }
}

/// An SSO identity a valid token proved: a registered issuer and the token's subject (kept as its SHA-256 only).
package struct SSOIdentity: Sendable, Hashable {
    /// The registered issuer's id.
    package let issuerID: String
    /// The issuer's type.
    package let type: SSOIssuerType
    /// SHA-256 (hex) of the subject.
    package let subjectHash: String
    /// When the token expires, ms.
    package let expires: Int64

    /// The type of the profiles found through it: `platformSSO` (Fire TV, Roku) or `serviceTokenSSO`.
    package var profileType: ProfileType { type == .serviceToken ? .serviceTokenSSO : .platformSSO }
}

/// A sign-in found through an SSO identity: the stored profile of the device that signed in (`origin`, whose keys reach
/// its OAuth 2.0 grant in decisions) and the same profile as the calling device sees it (`shared`: the caller's
/// requestor, client and device, type `platformSSO` or `serviceTokenSSO`). Both carry the SSO type.
package struct SharedProfile: Sendable {
    package let origin: ProfileRecord
    package let shared: ProfileRecord
}

/// Single sign-on by platform identity and by service token (REST API v2), as Adobe documents it: a sign-in made while
/// the session request carried a valid token is shared under that token's identity (issuer, subject); another app or
/// device of any requestor the issuer lists, presenting a valid token of the same identity, finds it as a `platformSSO`
/// or `serviceTokenSSO` profile, for every MVPD integrated and enabled for its requestor; a logout with the token ends
/// the sharing. Tokens are JWS (RS256, ES256) verified against the issuer's registered keys or JWKS, its `iss`, the
/// audience, `exp`/`nbf`/`iat` within 60 s. A token that fails any check is logged (never the token) and the request
/// goes on without SSO: Adobe defines no error code for it. Knows nothing of HTTP.
package struct TokenSingleSignOn: Sendable, ClockReading {
    /// Issuers and shared sign-ins.
    package let store: SSOStore
    /// The issuers, kept with the catalog.
    package let issuerSlot: CatalogSlot<CatalogCache.Whole, [SSOIssuerRecord]>
    /// Integrations of the caller's requestor.
    package let catalog: any CatalogReading
    /// The profiles shared.
    package let profiles: any ProfileStoring
    /// Keys published as JWKS.
    package let jwks: JWKSKeyCache
    /// Tokens verified recently (by header type and token), with the catalog generation they were verified under.
    private let verified = BoundedMemo<String, Verified>(capacity: 10_000)
    /// The catalog's generation now.
    private let generation: @Sendable () -> UInt64
    package let clock: any ServiceClock
    /// How long a sign-in may take, ms: a shared sign-in without its profile is forgotten only after it.
    package let sessionLifetime: Int64

    private struct Verified: Sendable {
        let issuerID: String
        let subjectHash: String
        let expires: Int64
        let generation: UInt64
    }

    package init(
        store: SSOStore, catalog: any CatalogReading, profiles: any ProfileStoring, jwks: JWKSKeyCache, clock: any ServiceClock,
        sessionLifetime: Int64
    ) {
        self.store = store
        let cache = store.catalogCache
        self.issuerSlot = cache.derivedSlot()
        self.generation = { cache.generation }
        self.catalog = catalog
        self.profiles = profiles
        self.jwks = jwks
        self.clock = clock
        self.sessionLifetime = sessionLifetime
    }

    /// The registered issuers.
    package func issuers() async throws -> [SSOIssuerRecord] { try await store.issuers(cachedIn: issuerSlot) }

    /// The identities the request's valid tokens prove for `requestor` (an issuer that lists it). Never throws: a token
    /// that fails a check, or an issuer that cannot be read, is logged and left out.
    package func identities(_ tokens: SingleSignOnTokens, requestor: String, logger: Logger) async -> [SSOIdentity] {
        guard !tokens.isEmpty else { return [] }
        let issuers: [SSOIssuerRecord]
        do { issuers = try await self.issuers() } catch {
            logger.error("SSO issuers cannot be read", metadata: ["error": "\(error)"])
            return []
        }
        var found: [SSOIdentity] = []
        for (type, header, token) in tokens.presented {
            do throws(SSOTokenRefusal) {
                let identity = try await identity(token: token, type: type, requestor: requestor, issuers: issuers, logger: logger)
                if !found.contains(identity) { found.append(identity) }
            } catch {
                logger.notice(
                    "SSO token refused; the request goes on without single sign-on",
                    metadata: ["header": "\(header)", "requestor": "\(requestor)", "reason": "\(error.description)"])
            }
        }
        return found
    }

    private func identity(
        token: String, type: SSOIssuerType, requestor: String, issuers: [SSOIssuerRecord], logger: Logger
    ) async throws(SSOTokenRefusal) -> SSOIdentity {
        let now = self.now, generation = self.generation()
        let memoKey = type.rawValue + " " + Secrets.sha256Hex(token)
        if let known = verified.value(for: memoKey), known.generation == generation, known.expires + Int64(SSOToken.skewSeconds * 1000) >= now,
            let issuer = issuers.first(where: { $0.id == known.issuerID }), issuer.requestors.contains(requestor)
        {
            return SSOIdentity(issuerID: issuer.id, type: type, subjectHash: known.subjectHash, expires: known.expires)
        }
        let parsed = try SSOToken.parse(token)
        let sameIssuer = issuers.filter { $0.type == type && $0.issuer == parsed.issuer }
        guard !sameIssuer.isEmpty else {
            throw SSOTokenRefusal("no \(type.rawValue) issuer is registered for the token's iss")
        }
        let candidates = sameIssuer.filter { $0.requestors.contains(requestor) }
        guard !candidates.isEmpty else { throw SSOTokenRefusal("the token's issuer is not registered for this requestor") }
        var lastRefusal = SSOTokenRefusal("the token's signature does not verify with the issuer's keys")
        for issuer in candidates {
            var keys = issuer.publicKeys.flatMap { (try? SSOVerificationKey.keys(pem: $0)) ?? [] }
            if let url = issuer.jwksURL { keys += await jwks.keys(url: url, kid: parsed.kid, logger: logger) }
            guard parsed.isSigned(byOneOf: keys) else { continue }
            do throws(SSOTokenRefusal) {
                let subject = try parsed.checkClaims(for: issuer, now: now)
                let expires = Int64((parsed.expires ?? 0) * 1000)
                let subjectHash = Secrets.sha256Hex(subject)
                verified.keep(Verified(issuerID: issuer.id, subjectHash: subjectHash, expires: expires, generation: generation), for: memoKey)
                return SSOIdentity(issuerID: issuer.id, type: type, subjectHash: subjectHash, expires: expires)
            } catch {
                lastRefusal = error
            }
        }
        throw lastRefusal
    }

    /// Shares the sign-in of `sessionCode` (made for `requestor`) under each identity.
    package func share(sessionCode: String, requestor: String, identities: [SSOIdentity]) async throws {
        let now = self.now
        for identity in identities {
            try await store.shareSignIn(
                SSOSignInRecord(
                    issuerId: identity.issuerID, subjectHash: identity.subjectHash, requestorId: requestor, sessionCode: sessionCode,
                    createdAt: now))
        }
    }

    /// Shares the device's own sign-in with `mvpd`, when it is an MVPD login in force made through a session.
    package func shareExisting(caller: CallerIdentity, mvpd: String, identities: [SSOIdentity]) async throws {
        guard !identities.isEmpty,
            let profile = try await profiles.profile(
                requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value, mvpd: mvpd),
            profile.type == .regular, profile.notAfter > now, let code = profile.sessionCode
        else { return }
        try await share(sessionCode: code, requestor: caller.requestor.id, identities: identities)
    }

    /// The sign-ins shared under `identities` that the caller's requestor may use: in force, MVPD logins, the sharing
    /// requestor still listed by the issuer, the MVPD integrated and enabled for the caller's requestor; the most recent
    /// per MVPD (only `mvpd` when given).
    package func sharedProfiles(_ identities: [SSOIdentity], caller: CallerIdentity, mvpd: String? = nil) async throws -> [String: SharedProfile] {
        guard !identities.isEmpty else { return [:] }
        let now = self.now
        let issuers = try await self.issuers()
        var found: [String: SharedProfile] = [:]
        for identity in identities {
            guard let issuer = issuers.first(where: { $0.id == identity.issuerID }) else { continue }
            for shared in try await store.sharedSignIns(issuer: identity.issuerID, subjectHash: identity.subjectHash) {
                guard issuer.requestors.contains(shared.requestorId) else { continue }
                guard var origin = try await profiles.profile(requestor: shared.requestorId, sessionCode: shared.sessionCode) else {
                    // The sign-in never completed, or its profile was replaced or ended: forgotten once it cannot still complete.
                    if shared.createdAt + sessionLifetime < now { try await store.unshareSignIn(shared) }
                    continue
                }
                guard origin.type == .regular, origin.notAfter > now, mvpd == nil || origin.mvpdId == mvpd else { continue }
                if let known = found[origin.mvpdId], known.origin.notBefore >= origin.notBefore { continue }
                guard try await catalog.integratedMVPD(requestor: caller.requestor.id, mvpd: origin.mvpdId) != nil else { continue }
                origin.type = identity.profileType
                var seen = origin
                (seen.requestorId, seen.clientId, seen.deviceId) = (caller.requestor.id, caller.clientID, caller.device.value)
                found[origin.mvpdId] = SharedProfile(origin: origin, shared: seen)
            }
        }
        return found
    }

    /// Ends the sharing under `identities` of the sign-ins with `mvpds` (every MVPD when nil); returns the MVPDs whose
    /// shared sign-ins ended.
    package func signOut(_ identities: [SSOIdentity], mvpds: Set<String>?) async throws -> Set<String> {
        var ended: Set<String> = []
        for identity in identities {
            for shared in try await store.sharedSignIns(issuer: identity.issuerID, subjectHash: identity.subjectHash) {
                let profile = try await profiles.profile(requestor: shared.requestorId, sessionCode: shared.sessionCode)
                if let mvpds, let profile, !mvpds.contains(profile.mvpdId) { continue }
                if let mvpds, profile == nil, shared.createdAt + sessionLifetime >= now, !mvpds.isEmpty {
                    // A sign-in still under way with an MVPD not known yet: left for its own logout.
                    continue
                }
                try await store.unshareSignIn(shared)
                if let profile, profile.notAfter > now { ended.insert(profile.mvpdId) }
            }
        }
        return ended
    }
}
