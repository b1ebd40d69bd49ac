import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches the service's published PEM bundle (`GET {service}/keys/media-token`). A seam for tests.
public protocol KeyBundleFetcher: Sendable {
    /// Returns the bundle's bytes; throws ``VerificationKeyError`` (`fetchFailed`, `unreadable`).
    func fetchKeyBundle(from url: URL) async throws -> Data
}

/// A ``KeyBundleFetcher`` over `URLSession` (FoundationNetworking on Linux); `file:` URLs are read directly.
public struct URLSessionKeyBundleFetcher: KeyBundleFetcher {
    private let timeout: TimeInterval

    /// Creates a fetcher with a per-request timeout.
    public init(timeout: Duration = .seconds(10)) {
        let parts = timeout.components
        self.timeout = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Fetches the bundle: HTTP 200 with a body of at most 256 KiB, or a readable file.
    public func fetchKeyBundle(from url: URL) async throws -> Data {
        if url.isFileURL {
            guard let data = try? Data(contentsOf: url) else {
                throw VerificationKeyError(.unreadable, "cannot read key file \(url.path)")
            }
            return data
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/x-pem-file", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw VerificationKeyError(.fetchFailed, "cannot fetch keys from \(url.absoluteString)")
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            throw VerificationKeyError(.fetchFailed, "key endpoint \(url.absoluteString) answered HTTP \(status)")
        }
        guard data.count <= PEMKeyReader.maximumBundleSize else {
            throw VerificationKeyError(.fetchFailed, "key bundle from \(url.absoluteString) is larger than \(PEMKeyReader.maximumBundleSize) bytes")
        }
        return data
    }
}
