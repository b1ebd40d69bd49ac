import EntitleCore
import EntitleModel
import EntitleStorage
import SAML

extension ServiceKeys {
    /// The certificates of every published saml-sp key, as the SP metadata publishes them: the signing key's first,
    /// then its successor during a rotation (published before it signs) and a recently retired one. An IdP that trusts
    /// all of them keeps accepting our requests across a rotation.
    package func samlSPCertificates() async throws -> [Certificate] {
        let keys = try await keys(purpose: .samlSP)
        let signing = keys.signing(at: nowMilliseconds())?.kid
        let ordered = keys.all.filter { $0.kid == signing } + keys.all.filter { $0.kid != signing }
        return ordered.compactMap { keys.identities[$0.kid]?.certificate }
    }
}
