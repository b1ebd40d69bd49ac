import EntitleCore
import EntitleServer
import Foundation

extension Admin.Keys {
    /// What rotating a key of `purpose` affects, printed before the rotation: shipped software statements for `jwt`,
    /// the MVPDs holding our SP certificate for `saml-sp`, the video servers' verifiers for media-token keys.
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
