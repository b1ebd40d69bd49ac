import EntitleModel
import EntitleStorage

/// Where ``DecisionService`` gets the signer of a requestor's short media tokens: ``MediaTokenService`` chooses the key
/// from the catalog and the key store; a unit test gives a signer with a key of its own.
package protocol MediaTokenSigning: Sendable {
    /// The media-token issuer with the current key of the requestor's algorithm.
    func mediaTokenSigner(requestor: String) async throws -> MediaTokenIssuer
}

extension MediaTokenService: MediaTokenSigning {}
