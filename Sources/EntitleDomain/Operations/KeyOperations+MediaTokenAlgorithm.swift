import EntitleCore
import EntitleModel
import EntitleStorage

extension KeyOperations {
    /// Signs `requestor`'s media tokens with `algorithm` from now on. For ECDSA and Ed25519 the key is made (or kept) and
    /// published first; it signs after `promoteAfter` ms (the default publication delay when nil), RSA until then.
    /// Returns that key, nil for RSA.
    package func setMediaTokenAlgorithm(
        requestor: String, _ algorithm: MediaTokenAlgorithm, promoteAfter: Int64? = nil, actor: String
    ) async throws -> ServiceKeyRecord? {
        try OperatorReach.requireRequestor(requestor)
        guard try await catalog.requestor(id: requestor) != nil else {
            throw AdminError.unknown("requestor", requestor, hint: "the requestors are listed by `entitle admin requestor list`")
        }
        let key = algorithm == .rsaSHA256 ? nil : try await keys.ensureMediaTokenKey(algorithm, promoteAfter: promoteAfter)
        try await catalog.setMediaTokenAlgorithm(requestor: requestor, algorithm)
        try await changes.record(actor: actor, action: "requestor.media-token-algorithm", target: requestor, after: ["algorithm": algorithm.rawValue])
        return key
    }

    /// The requestors with a media-token algorithm other than RSA.
    package func mediaTokenAlgorithms() async throws -> [MediaTokenAlgorithmRecord] {
        try await catalog.mediaTokenAlgorithms().filter { OperatorReach.maySee(requestor: $0.requestorId) }
    }

    /// The legacy application key pairs of a requestor.
    package func legacyAppKeys(requestor: String) async throws -> [LegacyAppKeyRecord] {
        try OperatorReach.requireVisibleRequestor(requestor)
        return try await legacy.legacyAppKeys(requestor: requestor)
    }

    /// Revokes a legacy application key pair: requests signed with it are refused at once.
    package func revokeLegacyAppKey(publicKey: String, actor: String) async throws {
        try OperatorReach.requireChange()
        if OperatorReach.scoped != nil {
            // Only a key pair of one of its requestors (an active one: a revoked key needs no revoking).
            guard let key = try await legacy.activeLegacyAppKey(publicKey: publicKey) else {
                throw AdminError.unknown("key pair", publicKey, hint: "list them with `entitle admin legacy-key list --requestor ID`")
            }
            try OperatorReach.requireRequestor(key.requestorId)
        }
        guard try await legacy.revokeLegacyAppKey(publicKey: publicKey) else {
            throw AdminError.unknown("key pair", publicKey, hint: "list them with `entitle admin legacy-key list --requestor ID`")
        }
        try await changes.record(
            actor: actor, action: "legacy-key.revoke", target: publicKey, before: ["status": "active"], after: ["status": "revoked"])
    }
}
