import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Logging

/// The service's keys as operators handle them, for every front end: rotation (each recorded in the changes log) and
/// what it affects, the keys of every purpose as an operator reads them, and requestor key pairs for the legacy HMAC
/// header.
package struct KeyOperations: Sendable {
    /// The service's keys.
    package let keys: ServiceKeys
    /// Stored keys.
    package let keyStore: KeyStore
    /// Software statements (what a `jwt` rotation affects).
    package let clients: ClientStore
    /// Stored refresh tokens and client secrets (what a `token-encryption` rotation re-encrypts).
    package let oauth2: OAuth2Store
    /// Legacy app keys.
    package let legacy: LegacyStore
    /// Requestors.
    package let catalog: CatalogStore
    /// Re-encrypts with the `token-encryption` key.
    package let cipher: TokenCipher
    /// The changes log.
    package let changes: ChangeRecorder
    /// Time.
    package let clock: any ServiceClock
    /// A notice per token-encryption rotation.
    package let logger: Logger

    /// Rotates a key (see ``ServiceKeys/rotate(purpose:promoteAfter:)``) and records it.
    package func rotate(purpose: KeyPurpose, promoteAfterSeconds: Int64?, actor: String) async throws -> ServiceKeyRecord {
        try OperatorReach.requireServiceWide("the service's keys")
        guard KeyPurpose.known.contains(purpose) else {
            throw AdminError(
                "invalid_value", "unknown key purpose \(purpose.rawValue): use one of \(KeyPurpose.known.map(\.rawValue).joined(separator: ", "))")
        }
        if let promoteAfterSeconds, promoteAfterSeconds < 0 || promoteAfterSeconds > 30 * 86_400 {
            throw AdminError("invalid_value", "the delay before the new key signs must be 0 to 2,592,000 seconds")
        }
        if purpose == .tokenEncryption { return try await rotateTokenEncryption(actor: actor).key }
        let key = try await keys.rotate(purpose: purpose, promoteAfter: promoteAfterSeconds.map { $0 * 1000 })
        try await changes.record(
            actor: actor, action: "keys.rotate", target: purpose.rawValue, after: ["kid": key.kid, "signsFrom": "\(key.signsFrom)"])
        return key
    }

    /// Rotates the token-encryption key, re-encrypts the stored refresh tokens and client secrets with it, and records it.
    package func rotateTokenEncryption(actor: String) async throws -> TokenEncryptionRotation {
        try OperatorReach.requireServiceWide("the service's keys")
        let rotation = try await rotateTokenEncryptionKey()
        try await changes.record(
            actor: actor, action: "keys.rotate", target: KeyPurpose.tokenEncryption.rawValue,
            after: [
                "kid": rotation.key.kid, "refreshTokens": "\(rotation.refreshTokens)", "clientSecrets": "\(rotation.clientSecrets)",
                "unreadable": "\(rotation.unreadable)",
            ])
        return rotation
    }

    /// The keys of every purpose as an operator reads them: which signs, which are published, which were retired.
    package func views() async throws -> [KeyView] {
        try OperatorReach.requireVisibleServiceWide("the service's keys")
        let now = clock.nowMilliseconds()
        var views: [KeyView] = []
        for purpose in KeyPurpose.known {
            let keys = try await keyStore.verificationKeys(purpose: purpose, retiredAfter: now - ServiceKeys.retiredKeyGrace)
            views += keys.map { KeyView($0, now: now) }
        }
        return views
    }

    /// What rotating a key of `purpose` affects, said before the rotation: shipped software statements for `jwt`,
    /// the MVPDs holding our SP certificate for `saml-sp`, the video servers' verifiers for media-token keys.
    package func rotationImpact(purpose: KeyPurpose) async throws -> String {
        try OperatorReach.requireVisibleServiceWide("the service's keys")
        switch purpose {
        case .jwt:
            let active = try await clients.softwareStatementsForAdmin(requestor: nil).filter { !$0.revoked }
            return """
                The jwt key signs software statements. \(active.count) active statement(s) are signed with the current key; \
                24 hours after this rotation the old key is retired and apps that ship those statements fail at /o/client/register. \
                Re-issue each one now (entitle admin software-statement create --requestor ID --name NAME) and ship it in the apps \
                before then; see docs/operator-guide.md, "Key runbook".
                """
        case .tokenEncryption:
            let (refreshTokens, clientSecrets) = try await tokenEncryptionInventory()
            return """
                The token-encryption key encrypts \(refreshTokens) stored OAuth 2.0 refresh token(s) and \(clientSecrets) \
                OAuth 2.0 client secret(s). The new key encrypts at once and every one of them is re-encrypted with it now; \
                the old key is kept (retired) to decrypt anything another instance encrypted before it saw the new key. \
                Sign-ins, apps and MVPDs are not affected.
                """
        case .samlSP:
            return """
                The saml-sp key signs our SAML requests and its certificate is in our SP metadata \
                (GET /sp/saml/metadata), which every MVPD holds. Send the MVPDs the new metadata \
                before the new key signs (the delay before it signs), or their IdPs refuse our requests.
                """
        default:
            return """
                Media-token verifiers fetch /keys/media-token; the new key is published now and signs after \
                the delay, so verifiers that refresh within that time keep accepting every token.
                """
        }
    }

    /// Issues a requestor key pair for the legacy HMAC header; returns (public key, private key).
    package func issueLegacyKeyPair(requestor: String) async throws -> (publicKey: String, privateKey: String) {
        guard try await catalog.requestor(id: requestor) != nil else { throw ConfigurationError("Unknown requestor \(requestor).") }
        // A public key is typed on command lines (`legacy-key revoke KEY`), where a leading "-" reads as an option.
        var publicKey = Secrets.randomToken(bytes: 24)
        while publicKey.hasPrefix("-") { publicKey = Secrets.randomToken(bytes: 24) }
        let privateKey = Secrets.randomToken(bytes: 32)
        try await legacy.insertLegacyAppKey(
            LegacyAppKeyRecord(
                publicKey: publicKey, requestorId: requestor, privateKey: privateKey,
                createdAt: clock.nowMilliseconds(), revoked: false))
        return (publicKey, privateKey)
    }

    /// Creates the value from each of its stored properties.
    package init(
        keys: ServiceKeys, keyStore: KeyStore, clients: ClientStore, oauth2: OAuth2Store, legacy: LegacyStore, catalog: CatalogStore,
        cipher: TokenCipher, changes: ChangeRecorder, clock: any ServiceClock, logger: Logger
    ) {
        self.keys = keys
        self.keyStore = keyStore
        self.clients = clients
        self.oauth2 = oauth2
        self.legacy = legacy
        self.catalog = catalog
        self.cipher = cipher
        self.changes = changes
        self.clock = clock
        self.logger = logger
    }
}
