import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin.Keys {
    /// What rotating a key of `purpose` affects (``KeyOperations/rotationImpact(purpose:)``, shared with the console),
    /// printed before the rotation.
    static func rotationNotice(purpose: KeyPurpose, service: EntitleService) async throws -> String {
        "note: " + (try await service.keyOperations.rotationImpact(purpose: purpose))
    }

}

extension Admin.Keys.Rotate {
    /// `keys rotate --purpose token-encryption`: says what it affects, rotates, re-encrypts, records it.
    func rotateTokenEncryption() async throws {
        let rotation = try await Admin.withService(admin) { service in
            let notice = try await Admin.Keys.rotationNotice(purpose: .tokenEncryption, service: service)
            FileHandle.standardError.write(Data((notice + "\n").utf8))
            return try await service.keyOperations.rotateTokenEncryption(actor: Admin.cliActor)
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
