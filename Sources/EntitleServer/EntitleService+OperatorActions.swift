import EntitleCore
import Foundation

/// Changes an operator makes during operations — degradation rules, TempPass resets, key rotations — and the
/// readings the console shows beside them, each change recorded in the changes log with its actor.
extension EntitleService {
    /// Sets a degradation rule for a time window and records it.
    package func setDegradationRule(requestor: String, mvpd: String, rule: DegradationRule, start: Date, end: Date, actor: String) async throws {
        try await setDegradation(requestor: requestor, mvpd: mvpd, rule: rule, start: start, end: end)
        try await recordChange(
            actor: actor, action: "degradation.set", target: "\(requestor)/\(mvpd)",
            after: ["rule": rule.rawValue, "start": start.ISO8601Format(), "end": end.ISO8601Format()])
    }

    /// Removes a degradation rule and records it; an absent rule is an `unknown_degradation_rule` error.
    package func removeDegradationRule(requestor: String, mvpd: String, rule: DegradationRule, actor: String) async throws {
        guard try await repository.degradation.deleteDegradationRule(requestor: requestor, mvpd: mvpd, rule: rule) else {
            throw AdminError.unknown("degradation rule", "\(rule.rawValue) for \(requestor)/\(mvpd)", hint: "the rules in force are listed")
        }
        try await recordChange(actor: actor, action: "degradation.remove", target: "\(requestor)/\(mvpd)", before: ["rule": rule.rawValue])
    }

    /// Resets the TempPass of one device (or of every device when `device` is nil) and records it; returns how many
    /// passes were removed.
    package func resetTempPass(requestor: String, mvpd: String, device: String?, actor: String) async throws -> Int {
        guard try await repository.catalog.requestor(id: requestor) != nil else {
            throw AdminError.unknown("requestor", requestor, hint: "list them with `entitle admin requestor list`")
        }
        let count = try await resetTempPass(requestor: requestor, mvpd: mvpd, device: device, identity: nil)
        try await recordChange(
            actor: actor, action: "temppass.reset", target: "\(requestor)/\(mvpd)",
            after: ["scope": device.map { "device \($0)" } ?? "all", "passes": "\(count)"])
        return count
    }

    /// Rotates a key (see ``ServiceKeys/rotate(purpose:promoteAfter:)``) and records it.
    package func rotateKey(purpose: KeyPurpose, promoteAfterSeconds: Int64?, actor: String) async throws -> ServiceKeyRecord {
        guard KeyPurpose.known.contains(purpose) else {
            throw AdminError(
                "invalid_value", "unknown key purpose \(purpose.rawValue): use one of \(KeyPurpose.known.map(\.rawValue).joined(separator: ", "))")
        }
        if let promoteAfterSeconds, promoteAfterSeconds < 0 || promoteAfterSeconds > 30 * 86_400 {
            throw AdminError("invalid_value", "the delay before the new key signs must be 0 to 2,592,000 seconds")
        }
        if purpose == .tokenEncryption {
            // The stored refresh tokens and client secrets are re-encrypted with the new key, as `keys rotate` does.
            let rotation = try await rotateTokenEncryptionKey()
            try await recordChange(
                actor: actor, action: "keys.rotate", target: purpose.rawValue,
                after: ["kid": rotation.key.kid, "refreshTokens": "\(rotation.refreshTokens)", "clientSecrets": "\(rotation.clientSecrets)"])
            return rotation.key
        }
        let key = try await keys.rotate(purpose: purpose, promoteAfter: promoteAfterSeconds.map { $0 * 1000 })
        try await recordChange(
            actor: actor, action: "keys.rotate", target: purpose.rawValue, after: ["kid": key.kid, "signsFrom": "\(key.signsFrom)"])
        return key
    }

    /// The keys of every purpose as an operator reads them: which signs, which are published, which were retired.
    package func keyViews() async throws -> [KeyView] {
        let now = self.now
        var views: [KeyView] = []
        for purpose in KeyPurpose.known {
            let keys = try await repository.keys.verificationKeys(purpose: purpose, retiredAfter: now - ServiceKeys.retiredKeyGrace)
            views += keys.map { KeyView($0, now: now) }
        }
        return views
    }

    /// What rotating a key of `purpose` affects, said before the rotation: shipped software statements for `jwt`,
    /// the MVPDs holding our SP certificate for `saml-sp`, the video servers' verifiers for media-token keys.
    package func keyRotationImpact(purpose: KeyPurpose) async throws -> String {
        switch purpose {
        case .jwt:
            let active = try await repository.clients.softwareStatementsForAdmin(requestor: nil).filter { !$0.revoked }
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

    /// The JWT of a software statement that is not revoked, signed again with the current key (same claims), for an
    /// operator to download and ship in the app.
    package func softwareStatementJWT(id: String) async throws -> String {
        guard let record = try await repository.clients.softwareStatement(id: id) else {
            throw AdminError.unknown("software statement", id, hint: "list them with `entitle admin software-statement list`")
        }
        guard !record.revoked else { throw AdminError("revoked", "software statement \(id) is revoked; issue a new one", status: 409) }
        let claims = SoftwareStatementClaims(
            iss: TokenIssuer.issuer, softwareID: record.softwareId, requestorID: record.requestorId, clientName: record.name,
            redirectURIs: record.redirectURIs, iat: record.issuedAt)
        return try await tokens.sign(statement: claims)
    }
}

/// A service key as the console shows it (never the private key).
package struct KeyView: Codable, Sendable, Equatable {
    /// Key id.
    package var kid: String
    /// What it signs.
    package var purpose: String
    /// Created, ISO 8601.
    package var createdAt: String
    /// From when it signs, ISO 8601.
    package var signsFrom: String
    /// When it is (or was) retired: it stops signing then and stays published for verification for 24 hours, ISO 8601.
    package var retiredAt: String?
    /// `signing`, `published` (signs later), `signing until its successor signs` or `retired`.
    package var state: String

    init(_ record: ServiceKeyRecord, now: Int64) {
        func iso(_ ms: Int64) -> String { Date(timeIntervalSince1970: Double(ms) / 1000).ISO8601Format() }
        (kid, purpose, createdAt, signsFrom, retiredAt) = (
            record.kid, record.purpose.rawValue, iso(record.createdAt), iso(record.signsFrom), record.retiredAt.map(iso)
        )
        if let retiredAt = record.retiredAt, retiredAt <= now {
            state = "retired"
        } else {
            state = record.signsFrom > now ? "published" : record.retiredAt == nil ? "signing" : "signing until its successor signs"
        }
    }
}
