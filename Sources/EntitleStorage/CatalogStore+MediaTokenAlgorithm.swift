import EntitleCore
import EntitleModel
import SQLKit

extension CatalogStore {
    /// The media-token algorithm of a requestor (`rsa-sha256` unless configured), from the catalog cache.
    package func mediaTokenAlgorithm(requestor: String) async throws -> MediaTokenAlgorithm {
        let records = try await cached(catalogCache.mediaTokenAlgorithms, .table) {
            try await all("SELECT * FROM requestor_media_token_algorithms", as: MediaTokenAlgorithmRecord.self)
        }
        return records.first { $0.requestorId == requestor }.map(\.algorithm) ?? .rsaSHA256
    }

    /// Sets the media-token algorithm of a requestor (the default removes the row).
    package func setMediaTokenAlgorithm(requestor: String, _ algorithm: MediaTokenAlgorithm) async throws {
        if algorithm == .rsaSHA256 {
            try await run("DELETE FROM requestor_media_token_algorithms WHERE requestor_id = \(bind: requestor)")
        } else {
            try await run(
                """
                INSERT INTO requestor_media_token_algorithms (requestor_id, algorithm) VALUES (\(bind: requestor), \(bind: algorithm.rawValue))
                ON CONFLICT (requestor_id) DO UPDATE SET algorithm = excluded.algorithm
                """)
        }
        try await catalogChanged()
    }

    /// Every requestor with a non-default media-token algorithm.
    package func mediaTokenAlgorithms() async throws -> [MediaTokenAlgorithmRecord] {
        try await all("SELECT * FROM requestor_media_token_algorithms ORDER BY requestor_id", as: MediaTokenAlgorithmRecord.self)
    }
}
