import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The admin API's service keys (`entitle admin keys list|rotate`) and new legacy key pairs (`legacy-key create`): the
/// same operations as the CLI and the console, with the same changes-log entries. Listing and revoking legacy key pairs
/// are among the settings (`AdminAPIController+Settings.swift`).
package struct AdminKeyRoutes: AdminAPIRoutes {
    package let keyOperations: KeyOperations
    package let clock: any ServiceClock

    /// Creates the value from each of its stored properties.
    package init(keyOperations: KeyOperations, clock: any ServiceClock) {
        self.keyOperations = keyOperations
        self.clock = clock
    }

    /// Adds the key routes to `group` (`/admin/api`, signed in).
    package func addRoutes(to group: RouterGroup<AdminContext>) {
        group.get("keys") { _, _ in Self.json(try await keyOperations.views()) }
        group.get("keys/:purpose/rotation") { _, context in
            let purpose = try Self.keyPurpose(context)
            return Self.json(KeyRotationView(purpose: purpose.rawValue, impact: try await keyOperations.rotationImpact(purpose: purpose)))
        }
        group.post("keys/:purpose/rotate", use: rotateKey)
        group.post("legacy-keys") { request, context in
            let body = try await Self.decode(NewLegacyKey.self, request, context: context)
            let pair = try await keyOperations.issueLegacyKeyPair(requestor: body.requestor, actor: context.operatorIdentity.actor)
            return Self.json(IssuedLegacyKey(publicKey: pair.publicKey, privateKey: pair.privateKey, requestor: body.requestor), status: .created)
        }
    }

    /// A known key purpose from the path; anything else is a 404 `unknown_key_purpose`.
    static func keyPurpose(_ context: AdminContext) throws -> KeyPurpose {
        let purpose = KeyPurpose(rawValue: try context.parameters.require("purpose"))
        guard KeyPurpose.known.contains(purpose) else {
            throw AdminAPIError.make(
                404, "unknown_key_purpose",
                "no key purpose \(purpose.rawValue): use one of \(KeyPurpose.known.map(\.rawValue).joined(separator: ", "))")
        }
        return purpose
    }

    /// `POST keys/{purpose}/rotate`: as `entitle admin keys rotate` — a dry run says what it would affect and changes
    /// nothing; a `jwt` rotation needs `confirm`; a media-token key signing before verifiers can know it needs `force`.
    package func rotateKey(_ request: Request, context: AdminContext) async throws -> Response {
        let purpose = try Self.keyPurpose(context)
        let body = try await Self.decodeOptional(KeyRotationRequest.self, request, context: context) ?? KeyRotationRequest()
        if let seconds = body.promoteAfterSeconds, seconds < 0 {
            throw AdminAPIError.make(400, "invalid_value", "promoteAfterSeconds must not be negative")
        }
        if purpose == .tokenEncryption, body.promoteAfterSeconds != nil {
            throw AdminAPIError.make(400, "invalid_value", "promoteAfterSeconds does not apply to token-encryption: the new key encrypts at once")
        }
        try KeyOperations.checkPromotion(purpose: purpose, promoteAfterSeconds: body.promoteAfterSeconds, force: body.force ?? false)
        let impact = try await keyOperations.rotationImpact(purpose: purpose)
        if body.dryRun == true { return Self.json(KeyRotationView(purpose: purpose.rawValue, impact: impact)) }
        if purpose == .jwt, body.confirm != true {
            throw AdminAPIError.make(
                409, "confirmation_required", "a jwt rotation breaks every shipped software statement; send confirm: true to rotate. \(impact)")
        }
        let actor = context.operatorIdentity.actor
        var view = KeyRotationView(purpose: purpose.rawValue, impact: impact)
        if purpose == .tokenEncryption {
            let rotation = try await keyOperations.rotateTokenEncryption(actor: actor)
            view.key = KeyView(rotation.key, now: clock.nowMilliseconds())
            view.reEncrypted = .init(refreshTokens: rotation.refreshTokens, clientSecrets: rotation.clientSecrets, unreadable: rotation.unreadable)
        } else {
            let key = try await keyOperations.rotate(purpose: purpose, promoteAfterSeconds: body.promoteAfterSeconds, actor: actor)
            view.key = KeyView(key, now: clock.nowMilliseconds())
        }
        return Self.json(view)
    }

    /// The body of `POST keys/{purpose}/rotate` (every field optional; no body is `{}`).
    package struct KeyRotationRequest: Decodable {
        /// Seconds the new key is published before it signs (default: 900 for media-token keys, 60 otherwise).
        package var promoteAfterSeconds: Int64?
        /// Allow a media-token key to sign before video servers' cached key bundles can know it.
        package var force: Bool?
        /// Required to rotate a `jwt` key.
        package var confirm: Bool?
        /// Say what the rotation would affect and change nothing.
        package var dryRun: Bool?

        package init() {}
    }

    /// What a rotation affects, and after a rotation the new key (and for `token-encryption` what was re-encrypted).
    package struct KeyRotationView: Encodable {
        package struct ReEncrypted: Encodable {
            package var refreshTokens: Int
            package var clientSecrets: Int
            package var unreadable: Int
        }

        package var purpose: String
        package var impact: String
        package var rotated: Bool { key != nil }
        package var key: KeyView?
        package var reEncrypted: ReEncrypted?

        package init(purpose: String, impact: String) {
            (self.purpose, self.impact) = (purpose, impact)
        }

        private enum CodingKeys: String, CodingKey { case purpose, impact, rotated, key, reEncrypted }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(purpose, forKey: .purpose)
            try container.encode(impact, forKey: .impact)
            try container.encode(rotated, forKey: .rotated)
            try container.encodeIfPresent(key, forKey: .key)
            try container.encodeIfPresent(reEncrypted, forKey: .reEncrypted)
        }
    }

    /// The body of `POST legacy-keys`.
    package struct NewLegacyKey: Decodable {
        package var requestor: String
    }

    /// A new legacy key pair: the private key is shown this once.
    package struct IssuedLegacyKey: Encodable {
        package var publicKey: String
        package var privateKey: String
        package var requestor: String
    }
}
