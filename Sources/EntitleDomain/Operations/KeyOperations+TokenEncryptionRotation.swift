import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Rotation of the `token-encryption` key without losing what it protects: the new key encrypts from now on, every
/// stored refresh token and client secret is re-encrypted with it, and the old key stays (retired) to decrypt anything
/// another instance encrypted before it saw the new key.
extension KeyOperations {
    /// What a `token-encryption` rotation did.
    package struct TokenEncryptionRotation: Sendable {
        /// The new key.
        package var key: ServiceKeyRecord
        /// Refresh tokens re-encrypted with it.
        package var refreshTokens: Int
        /// OAuth 2.0 client secrets re-encrypted with it.
        package var clientSecrets: Int
        /// Stored values that could not be decrypted (left as they were; their sign-ins end at their next use).
        package var unreadable: Int

        /// Creates the value from each of its stored properties.
        package init(key: ServiceKeyRecord, refreshTokens: Int, clientSecrets: Int, unreadable: Int) {
            self.key = key
            self.refreshTokens = refreshTokens
            self.clientSecrets = clientSecrets
            self.unreadable = unreadable
        }
    }

    /// What is encrypted with the `token-encryption` key now: stored refresh tokens and OAuth 2.0 client secrets.
    package func tokenEncryptionInventory() async throws -> (refreshTokens: Int, clientSecrets: Int) {
        (try await oauth2.allOAuth2Grants().count, try await oauth2.allOAuth2Settings().count)
    }

    /// Rotates the `token-encryption` key (the new one encrypts at once) and re-encrypts every stored value with it.
    package func rotateTokenEncryptionKey() async throws -> TokenEncryptionRotation {
        let key = try await keys.rotate(purpose: .tokenEncryption, promoteAfter: 0)
        var rotation = TokenEncryptionRotation(key: key, refreshTokens: 0, clientSecrets: 0, unreadable: 0)
        for grant in try await oauth2.allOAuth2Grants() where !grant.refreshToken.hasPrefix("v1.\(key.kid).") {
            let context = OAuth2SignIn.grantContext(requestor: grant.requestorId, client: grant.clientId, device: grant.deviceId, mvpd: grant.mvpdId)
            guard let plain = try? await cipher.open(grant.refreshToken, context: context) else {
                rotation.unreadable += 1
                continue
            }
            try await oauth2.replaceOAuth2GrantToken(grant, with: try await cipher.seal(plain, context: context))
            rotation.refreshTokens += 1
        }
        for settings in try await oauth2.allOAuth2Settings() where !settings.encryptedClientSecret.hasPrefix("v1.\(key.kid).") {
            let context = OAuth2SignIn.clientSecretContext(mvpd: settings.mvpdId)
            guard let plain = try? await cipher.open(settings.encryptedClientSecret, context: context) else {
                rotation.unreadable += 1
                continue
            }
            try await oauth2.replaceOAuth2ClientSecret(
                mvpd: settings.mvpdId, from: settings.encryptedClientSecret, to: try await cipher.seal(plain, context: context))
            rotation.clientSecrets += 1
        }
        logger.notice(
            "token-encryption key rotated, stored secrets re-encrypted",
            metadata: [
                "kid": "\(key.kid)", "refreshTokens": "\(rotation.refreshTokens)", "clientSecrets": "\(rotation.clientSecrets)",
                "unreadable": "\(rotation.unreadable)",
            ])
        return rotation
    }
}
