import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// OAuth 2.0 MVPDs for every front end (`entitle admin mvpd add --oauth2-…`, the admin API): added, changed and shown
/// through recorded operations; the client secret is write-only.
extension OAuth2MVPDOperations {
    /// Adds or replaces an OAuth 2.0 MVPD integrated with `requestors` (which must exist) and records it.
    package func save(
        id: String, options: MVPDOptions, oauth2: OAuth2MVPDSettings, requestors: [String], actor: String
    ) async throws {
        try AdminCatalog.checkMVPDID(id)
        try OperatorReach.requireMVPDSave(id, exists: try await catalog.mvpd(id: id) != nil)
        for requestor in requestors {
            try await lookups.existingRequestor(requestor, hint: "create it with `entitle admin requestor add`")
        }
        let before = try await catalog.mvpd(id: id) == nil ? nil : try await lookups.mvpdView(id: id)
        do {
            try await save(id: id, options: options, oauth2: oauth2, requestors: requestors)
        } catch let error as ConfigurationError {
            throw AdminError("invalid_value", error.description)
        }
        try await changes.record(
            actor: actor, action: before == nil ? "mvpd.add" : "mvpd.update", target: id, before: before, after: try await lookups.mvpdView(id: id))
    }

    /// The settings of a new OAuth 2.0 MVPD from the admin API's fields: discovered from `issuer`, or the endpoints given.
    package func settings(from fields: OAuth2MVPDFields) async throws -> OAuth2MVPDSettings {
        guard let clientID = fields.clientID, !clientID.isEmpty else { throw AdminError("invalid_value", "oauth2.clientID is required") }
        guard let secret = fields.clientSecret, !secret.isEmpty else { throw AdminError("invalid_value", "oauth2.clientSecret is required") }
        let endpoints = [fields.authorizeURL, fields.tokenURL, fields.userinfoURL]
        var settings: OAuth2MVPDSettings
        if let issuer = fields.issuer {
            guard endpoints.allSatisfy({ $0 == nil }) else {
                throw AdminError("invalid_value", "give oauth2.issuer or the endpoints (authorizeURL, tokenURL, userinfoURL), not both")
            }
            do { settings = try await discover(issuer: issuer, clientID: clientID, clientSecret: secret) } catch let error as ConfigurationError {
                throw AdminError("invalid_value", error.description)
            }
            if let logout = fields.logoutURL { settings.logoutURL = logout.isEmpty ? nil : logout }
        } else {
            guard let authorize = fields.authorizeURL, let token = fields.tokenURL, let userinfo = fields.userinfoURL else {
                throw AdminError("invalid_value", "an OAuth 2.0 MVPD needs oauth2.issuer, or oauth2.authorizeURL, tokenURL and userinfoURL")
            }
            settings = OAuth2MVPDSettings(
                authorizeURL: authorize, tokenURL: token, userinfoURL: userinfo, logoutURL: fields.logoutURL.flatMap { $0.isEmpty ? nil : $0 },
                clientID: clientID, clientSecret: secret)
        }
        settings.scopes = fields.scopes ?? []
        if let claim = fields.userIDClaim {
            guard !claim.isEmpty else { throw AdminError("invalid_value", "oauth2.userIDClaim must not be empty") }
            settings.userIDClaim = claim
        }
        return settings
    }

    /// The stored OAuth 2.0 settings of `mvpd` with `fields` applied (a new secret encrypted); nothing is stored.
    package func changedSettings(mvpd: String, _ fields: OAuth2MVPDFields) async throws -> MVPDOAuth2Record {
        guard var record = try await oauth2Store.oauth2Settings(mvpd: mvpd) else {
            throw AdminError("invalid_value", "\(mvpd) has no OAuth 2.0 settings")
        }
        if let issuer = fields.issuer {
            guard [fields.authorizeURL, fields.tokenURL, fields.userinfoURL].allSatisfy({ $0 == nil }) else {
                throw AdminError("invalid_value", "give oauth2.issuer or the endpoints, not both")
            }
            let discovered: OAuth2MVPDSettings
            do { discovered = try await discover(issuer: issuer, clientID: record.clientID, clientSecret: "-") } catch let error
                as ConfigurationError
            {
                throw AdminError("invalid_value", error.description)
            }
            (record.issuer, record.authorizeURL, record.tokenURL) = (discovered.issuer, discovered.authorizeURL, discovered.tokenURL)
            (record.userinfoURL, record.logoutURL, record.pkce) = (discovered.userinfoURL, discovered.logoutURL, discovered.pkce)
            record.tokenAuthMethod = discovered.tokenAuthMethod
        } else if fields.authorizeURL != nil || fields.tokenURL != nil || fields.userinfoURL != nil {
            record.issuer = nil
        }
        if let url = fields.authorizeURL { record.authorizeURL = url }
        if let url = fields.tokenURL { record.tokenURL = url }
        if let url = fields.userinfoURL { record.userinfoURL = url }
        if let url = fields.logoutURL { record.logoutURL = url.isEmpty ? nil : url }
        do {
            for (url, name) in [
                (record.authorizeURL, "the authorization endpoint"), (record.tokenURL, "the token endpoint"),
                (record.userinfoURL, "the userinfo endpoint"),
            ]
                + (record.logoutURL.map { [($0, "the logout endpoint")] } ?? [])
            {
                try Self.checkEndpoint(url, name: name)
            }
        } catch let error as ConfigurationError {
            throw AdminError("invalid_value", error.description)
        }
        if let clientID = fields.clientID {
            guard !clientID.isEmpty else { throw AdminError("invalid_value", "oauth2.clientID must not be empty") }
            record.clientID = clientID
        }
        if let scopes = fields.scopes { record.scopes = scopes }
        if let claim = fields.userIDClaim {
            guard !claim.isEmpty else { throw AdminError("invalid_value", "oauth2.userIDClaim must not be empty") }
            record.userIDClaim = claim
        }
        if let secret = fields.clientSecret {
            guard !secret.isEmpty else { throw AdminError("invalid_value", "oauth2.clientSecret must not be empty") }
            record.encryptedClientSecret = try await cipher.seal(
                secret, context: OAuth2SignIn.clientSecretContext(mvpd: mvpd))
        }
        return record
    }
}
