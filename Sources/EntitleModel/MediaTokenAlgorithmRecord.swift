import EntitleCore

/// A requestor's media-token signature algorithm (a row exists only when it is not the default `rsa-sha256`).
package struct MediaTokenAlgorithmRecord: Codable, Sendable, Equatable {
    /// Requestor id.
    package var requestorId: String
    /// The algorithm (an open set: one stored by a newer instance is read unchanged).
    package var algorithm: MediaTokenAlgorithm

    /// Creates a record.
    package init(requestorId: String, algorithm: MediaTokenAlgorithm) {
        self.requestorId = requestorId
        self.algorithm = algorithm
    }
}
