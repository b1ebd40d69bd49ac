import EntitleCore
import EntitleModel
import EntitleStorage

extension KeyOperations {
    /// Issues a requestor key pair for the legacy HMAC header and records it (the public key and the requestor, never
    /// the private key); returns (public key, private key). An unknown requestor is `unknown_requestor` (404).
    package func issueLegacyKeyPair(requestor: String, actor: String) async throws -> (publicKey: String, privateKey: String) {
        try OperatorReach.requireRequestor(requestor)
        guard try await catalog.requestor(id: requestor) != nil else {
            throw AdminError.unknown("requestor", requestor, hint: "the requestors are listed by `entitle admin requestor list`")
        }
        let pair = try await issueLegacyKeyPair(requestor: requestor)
        try await changes.record(actor: actor, action: "legacy-key.create", target: pair.publicKey, after: ["requestor": requestor])
        return pair
    }
}
