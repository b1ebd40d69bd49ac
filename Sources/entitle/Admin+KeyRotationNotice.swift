import EntitleCore
import EntitleServer
import Foundation

extension Admin.Keys {
    /// What rotating a key of `purpose` affects, printed before the rotation: shipped software statements for `jwt`,
    /// the MVPDs holding our SP certificate for `saml-sp`, the video servers' verifiers for media-token keys, the stored
    /// refresh tokens and client secrets for `token-encryption`.
    static func rotationNotice(purpose: KeyPurpose, service: EntitleService) async throws -> String {
        switch purpose.rawValue {
        case "jwt":
            let active = try await service.repository.softwareStatementsForAdmin(requestor: nil).filter { !$0.revoked }
            return """
                note: the jwt key signs software statements. \(active.count) active statement(s) are signed with the current key; \
                24 hours after this rotation the old key is retired and apps that ship those statements fail at /o/client/register. \
                Re-issue each one now (entitle admin software-statement create --requestor ID --name NAME) and ship it in the apps \
                before then; see docs/operator-guide.md, "Key runbook".
                """
        case KeyPurpose.tokenEncryption.rawValue:
            let (refreshTokens, clientSecrets) = try await service.tokenEncryptionInventory()
            return """
                note: the token-encryption key encrypts \(refreshTokens) stored OAuth 2.0 refresh token(s) and \(clientSecrets) \
                OAuth 2.0 client secret(s). The new key encrypts at once and every one of them is re-encrypted with it now; \
                the old key is kept (retired) to decrypt anything another instance encrypted before it saw the new key. \
                Sign-ins, apps and MVPDs are not affected.
                """
        case "saml-sp":
            return """
                note: the saml-sp key signs our SAML requests and its certificate is in our SP metadata \
                (GET /sp/saml/metadata), which every MVPD holds. Send the MVPDs the new metadata \
                before the new key signs (--promote-after), or their IdPs refuse our requests.
                """
        default:
            return """
                note: media-token verifiers fetch /keys/media-token; the new key is published now and signs after \
                --promote-after, so verifiers that refresh within that time keep accepting every token.
                """
        }
    }

}

extension Admin.Keys.Rotate {
    /// `keys rotate --purpose token-encryption`: says what it affects, rotates, re-encrypts, records it.
    func rotateTokenEncryption() async throws {
        let rotation = try await Admin.withService(storage) { service in
            let notice = try await Admin.Keys.rotationNotice(purpose: .tokenEncryption, service: service)
            FileHandle.standardError.write(Data((notice + "\n").utf8))
            let rotation = try await service.rotateTokenEncryptionKey()
            try await Admin.record(
                service, "keys.rotate", KeyPurpose.tokenEncryption.rawValue,
                after: [
                    "kid": rotation.key.kid, "refreshTokens": "\(rotation.refreshTokens)", "clientSecrets": "\(rotation.clientSecrets)",
                    "unreadable": "\(rotation.unreadable)",
                ])
            return rotation
        }
        print(
            "new token-encryption key \(rotation.key.kid), encrypting now; re-encrypted \(rotation.refreshTokens) refresh token(s) and "
                + "\(rotation.clientSecrets) client secret(s)")
        if rotation.unreadable > 0 {
            FileHandle.standardError.write(
                Data("warning: \(rotation.unreadable) stored value(s) could not be decrypted and were left as they were\n".utf8))
        }
    }
}
