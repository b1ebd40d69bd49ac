import Crypto
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// Sign-in with an OAuth 2.0 MVPD (Adobe's `authn-oauth2-protocol`): the authorization-code grant with PKCE S256, the
/// callback `/adobe-services/oauth2` whose `state` is bound to the authentication session (the registration code the
/// SAML path completes too), the token endpoint, the user-profile endpoint giving the user id and metadata; then the
/// refresh token, kept server-side with the profile and encrypted, exchanged for an access token before each MVPD
/// authorization call. Knows nothing of HTTP routing.
package struct OAuth2SignIn: Sendable, ClockReading {
    /// OAuth 2.0 records.
    package let oauth2: OAuth2Store
    /// Authentication sessions.
    package let sessions: SessionStore
    /// Catalog reads.
    package let catalog: CatalogStore
    /// Per-MVPD options.
    package let mvpdOptions: MVPDOptionsStore
    /// Profiles.
    package let profiles: ProfileStore
    package let configuration: ServiceConfiguration
    package let client: OAuth2Client
    package let cipher: TokenCipher
    package let authorizations: AuthorizationCache
    /// Ends a sign-in whose refresh token the MVPD refuses.
    package let logout: Logout
    package let metrics: ServiceMetrics
    package let clock: any ServiceClock

    /// How a callback ended.
    package enum Outcome: Sendable {
        /// Signed in: the browser goes on to `redirect`.
        case authenticated(redirect: String, code: String)
        /// The user declined at the MVPD: the browser goes back to the app with `error=authentication_failed`.
        case declined(redirect: String)
        /// Refused: shown to the user as the error, the MVPD named.
        case failed(EnhancedError)
    }

    /// The callback registered at the MVPD.
    package var redirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2" }
    /// Where the MVPD's logout endpoint sends the browser back.
    package var logoutRedirectURI: String { configuration.publicBaseURL + "/adobe-services/oauth2/logout" }

    /// The prefix of the session's `authn_request_id` for a sign-in at an OAuth 2.0 MVPD (then the state's hash).
    package static let requestPrefix = "oauth2:"

    /// The URL of the MVPD's authorization endpoint for the session, or nil when the session is already complete.
    package func authorizationURL(session: AuthSessionRecord, mvpd: MVPDRecord) async throws -> String? {
        guard let settings = try await oauth2.oauth2Settings(mvpd: mvpd.id) else { throw APIError(.invalidIntegration) }
        let state = Secrets.randomToken(bytes: 32)
        let stateHash = Secrets.sha256Hex(state)
        let verifier = Secrets.randomToken(bytes: 48)
        guard try await sessions.startAuthentication(code: session.code, authnRequestID: Self.requestPrefix + stateHash) else {
            return nil
        }
        metrics.recordSignIn(.attempt, key: ReportKey(session: session, mvpd: mvpd.id), visitor: session.reportVisitor, at: now)
        try await oauth2.insertOAuth2Pending(
            OAuth2PendingRecord(
                stateHash: stateHash, sessionCode: session.code, mvpdId: mvpd.id, codeVerifier: verifier, expiresAt: session.notAfter))
        var fields = [("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI), ("state", state)]
        if !settings.scopes.isEmpty { fields.append(("scope", settings.scopes.joined(separator: " "))) }
        if settings.pkce { fields += [("code_challenge", Self.challenge(verifier)), ("code_challenge_method", "S256")] }
        return settings.authorizeURL + (settings.authorizeURL.contains("?") ? "&" : "?") + FormURLEncoding.encode(fields)
    }

    /// The PKCE S256 challenge of a verifier (RFC 7636 §4.2).
    package static func challenge(_ verifier: String) -> String { Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncodedString() }

    /// The MVPD's callback: `code` and `state` (or `error` and `state`).
    package func complete(query: [String: String]) async throws -> Outcome {
        let unknown = EnhancedError.invalidAuthenticationSession.with(
            details: "The answer from the TV provider does not belong to a sign-in started here, or was already used.")
        guard let state = query["state"], !state.isEmpty, state.count <= 512,
            let pending = try await oauth2.takeOAuth2Pending(stateHash: Secrets.sha256Hex(state))
        else { return .failed(unknown) }
        guard let session = try await sessions.session(code: pending.sessionCode),
            let mvpd = try await catalog.mvpd(id: pending.mvpdId),
            session.authnRequestId == Self.requestPrefix + pending.stateHash, session.mvpdId == mvpd.id,
            session.status == .authenticating || session.status == .failed, session.notAfter > now, pending.expiresAt > now
        else { return .failed(unknown) }
        let name = mvpd.displayName
        if let error = query["error"] {
            try await sessions.failAuthentication(code: session.code, reason: "mvpd_declined")
            metrics.recordAuthentication(mvpd: mvpd.id, outcome: "declined")
            metrics.recordSignIn(
                .failure, key: ReportKey(session: session, mvpd: mvpd.id), reason: "authentication_denied_by_mvpd", visitor: session.reportVisitor,
                at: now)
            if let redirect = session.redirectUrl {
                return .declined(redirect: redirect + (redirect.contains("?") ? "&" : "?") + "error=authentication_failed")
            }
            let reason = error == "access_denied" ? "The sign-in was cancelled at \(name)." : "\(name) refused the sign-in."
            return .failed(EnhancedError.authenticatedProfileMissing.with(details: reason))
        }
        guard let code = query["code"], !code.isEmpty, code.count <= 2048 else {
            return try await fail(session, mvpd, EnhancedError.invalidRequest.with(details: "The answer from \(name) has no authorization code."))
        }
        do throws(OAuth2Client.Failure) {
            let endpoint = try await self.endpoint(mvpd)
            let tokens = try await client.exchange(
                code: code, verifier: endpoint.settings.pkce ? pending.codeVerifier : nil, redirectURI: redirectURI, at: endpoint)
            let claims = try await client.userinfo(accessToken: tokens.accessToken, at: endpoint)
            guard let userID = Self.userID(claims[endpoint.settings.userIDClaim]) else {
                throw OAuth2Client.Failure(
                    error: EnhancedError.networkReceivedError.with(
                        details: "The user profile from \(name) has no \(endpoint.settings.userIDClaim) claim."))
            }
            guard try await storeProfile(session: session, mvpd: mvpd, userID: userID, claims: claims, tokens: tokens) else {
                return .failed(unknown)
            }
            return .authenticated(redirect: session.redirectUrl ?? configuration.authenticatedPageURL, code: session.code)
        } catch {
            return try await fail(session, mvpd, error.error)
        }
    }

    private func fail(_ session: AuthSessionRecord, _ mvpd: MVPDRecord, _ error: EnhancedError) async throws -> Outcome {
        try await sessions.failAuthentication(code: session.code, reason: "\(error.code.rawValue): \(error.details ?? error.message)")
        metrics.recordAuthentication(mvpd: mvpd.id, outcome: "failed")
        metrics.recordSignIn(
            .failure, key: ReportKey(session: session, mvpd: mvpd.id), reason: error.code.rawValue, visitor: session.reportVisitor, at: now)
        return .failed(error)
    }

    /// The user id claim as text: a non-empty string, or a number.
    package static func userID(_ claim: JSONValue?) -> String? {
        switch claim {
        case .string(let text) where !text.isEmpty && text.count <= 1024: return text
        case .number(let number) where number.rounded() == number && abs(number) < 9e15: return String(Int64(number))
        default: return nil
        }
    }

    /// Completes the session and stores the profile with its refresh token; false when the session was completed meanwhile.
    private func storeProfile(
        session: AuthSessionRecord, mvpd: MVPDRecord, userID: String, claims: [String: JSONValue], tokens: OAuth2Client.Tokens
    ) async throws(OAuth2Client.Failure) -> Bool {
        do {
            guard let requestID = session.authnRequestId, try await sessions.completeAuthentication(authnRequestID: requestID) else {
                return false
            }
            let mapping = SAMLAttributeMapping(try await mvpdOptions.samlOptions(mvpd: mvpd.id)?.attributeMapping ?? [:])
            var metadata = mapping.grouped(mapping.map(claims, nameID: .string(userID)))
            metadata["userID"] = .string(userID)
            let now = self.now
            let lifetime = try await HomeBasedSignIns.lifetimeSeconds(
                requestor: session.requestorId, mvpd: mvpd, homeBased: HomeBasedSignIns.isHomeBased(metadata), catalog: catalog,
                options: mvpdOptions)
            let profile = ProfileRecord(
                requestorId: session.requestorId, clientId: session.clientId, deviceId: session.deviceId, mvpdId: mvpd.id,
                type: .regular, issuer: mvpd.id, notBefore: now, notAfter: now + lifetime * 1000,
                attributes: JSONText.encode(UserMetadataEncoder.stored(metadata)), nameId: userID, sessionIndex: nil,
                sessionCode: session.code, userId: userID)
            if let refreshToken = tokens.refreshToken {
                try await oauth2.upsertOAuth2Grant(
                    OAuth2GrantRecord(
                        requestorId: profile.requestorId, clientId: profile.clientId, deviceId: profile.deviceId, mvpdId: mvpd.id,
                        refreshToken: try await cipher.seal(refreshToken, context: Self.grantContext(profile)),
                        profileNotBefore: now, updatedAt: now))
            } else {
                try await oauth2.deleteOAuth2Grant(
                    requestor: profile.requestorId, client: profile.clientId, device: profile.deviceId, mvpd: mvpd.id)
            }
            try await profiles.upsertProfile(profile)
            authorizations.drop(requestor: profile.requestorId, mvpd: mvpd.id, userID: userID)
            metrics.recordAuthentication(mvpd: mvpd.id, outcome: "success")
            metrics.recordSignIn(
                .success, key: ReportKey(session: session, mvpd: mvpd.id), profile: profile, visitor: session.reportVisitor, at: now)
            return true
        } catch {
            throw OAuth2Client.Failure(error: .internalServerError)
        }
    }

    /// What a grant's encryption is bound to: its profile.
    package static func grantContext(_ profile: ProfileRecord) -> String {
        grantContext(requestor: profile.requestorId, client: profile.clientId, device: profile.deviceId, mvpd: profile.mvpdId)
    }

    /// What a grant's encryption is bound to, by the profile's key.
    package static func grantContext(requestor: String, client: String, device: String, mvpd: String) -> String {
        ["refresh-token", requestor, client, device, mvpd].joined(separator: "|")
    }

    /// What a client secret's encryption is bound to: its MVPD.
    package static func clientSecretContext(mvpd: String) -> String { "client-secret|" + mvpd }

    /// The MVPD's token endpoint with Entitle's client secret.
    package func endpoint(_ mvpd: MVPDRecord) async throws(OAuth2Client.Failure) -> OAuth2Client.Endpoint {
        do {
            guard let settings = try await oauth2.oauth2Settings(mvpd: mvpd.id) else {
                throw OAuth2Client.Failure(error: .invalidIntegration)
            }
            let secret = try await cipher.open(settings.encryptedClientSecret, context: Self.clientSecretContext(mvpd: mvpd.id))
            return OAuth2Client.Endpoint(settings: settings, clientSecret: secret, mvpdName: mvpd.displayName)
        } catch let failure as OAuth2Client.Failure {
            throw failure
        } catch {
            throw OAuth2Client.Failure(error: .invalidIntegration)
        }
    }

    /// An access token for the MVPD's authorization call on the profile's behalf, from its refresh token; nil when the
    /// profile has none (the MVPD's API key is used then). A refresh token the MVPD refuses ends the sign-in.
    package func accessToken(profile: ProfileRecord, mvpd: MVPDRecord) async -> Result<String?, EnhancedError> {
        do {
            guard
                let grant = try await oauth2.oauth2Grant(
                    requestor: profile.requestorId, client: profile.clientId, device: profile.deviceId, mvpd: mvpd.id),
                grant.profileNotBefore == profile.notBefore
            else { return .success(nil) }
            let refreshToken = try await cipher.open(grant.refreshToken, context: Self.grantContext(profile))
            let tokens: OAuth2Client.Tokens
            do throws(OAuth2Client.Failure) {
                tokens = try await client.refresh(refreshToken, at: try await self.endpoint(mvpd))
            } catch {
                if error.grantRevoked {
                    // The MVPD ended the sign-in: the device's later calls are told it was invalidated.
                    try await logout.endByIdentityProvider(profile, reason: EndedSignInRecord.Reason.refreshTokenRevoked)
                }
                return .failure(error.error)
            }
            if let replaced = tokens.refreshToken, replaced != refreshToken {
                // An MVPD that rotates refresh tokens: keep the new one.
                var updated = grant
                updated.refreshToken = try await cipher.seal(replaced, context: Self.grantContext(profile))
                updated.updatedAt = now
                try await oauth2.upsertOAuth2Grant(updated)
            }
            return .success(tokens.accessToken)
        } catch {
            return .failure(
                EnhancedError.authenticatedProfileInvalidated.with(details: "The sign-in with \(mvpd.displayName) cannot be used. Sign in again."))
        }
    }

    /// The MVPD's logout endpoint for a logout started here (`state` is the logout request id), or nil when it has none.
    package func logoutURL(mvpd: MVPDRecord, requestID: String) async throws -> String? {
        guard let settings = try await oauth2.oauth2Settings(mvpd: mvpd.id), let logoutURL = settings.logoutURL else { return nil }
        let fields = [("client_id", settings.clientID), ("post_logout_redirect_uri", logoutRedirectURI), ("state", requestID)]
        return logoutURL + (logoutURL.contains("?") ? "&" : "?") + FormURLEncoding.encode(fields)
    }

    /// Creates the value from each of its stored properties.
    package init(
        oauth2: OAuth2Store, sessions: SessionStore, catalog: CatalogStore, mvpdOptions: MVPDOptionsStore, profiles: ProfileStore,
        configuration: ServiceConfiguration, client: OAuth2Client, cipher: TokenCipher, authorizations: AuthorizationCache, logout: Logout,
        metrics: ServiceMetrics, clock: any ServiceClock
    ) {
        self.oauth2 = oauth2
        self.sessions = sessions
        self.catalog = catalog
        self.mvpdOptions = mvpdOptions
        self.profiles = profiles
        self.configuration = configuration
        self.client = client
        self.cipher = cipher
        self.authorizations = authorizations
        self.logout = logout
        self.metrics = metrics
        self.clock = clock
    }
}
