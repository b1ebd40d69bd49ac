import Foundation
@testable import MediaTokenVerifier
import Synchronization
import Testing

@Suite struct RemoteKeySourceTests {
    /// A fetcher that returns whatever bundle the test sets, or fails.
    final class FakeFetcher: KeyBundleFetcher {
        let bundle: Mutex<Result<Data, VerificationKeyError>>
        let calls = Mutex(0)
        init(_ pem: String) { bundle = Mutex(.success(Data(pem.utf8))) }
        func set(_ pem: String) { bundle.withLock { $0 = .success(Data(pem.utf8)) } }
        func fail() { bundle.withLock { $0 = .failure(VerificationKeyError(.fetchFailed, "HTTP 503")) } }
        func fetchKeyBundle(from url: URL) async throws -> Data {
            calls.withLock { $0 += 1 }
            return try bundle.withLock { $0 }.get()
        }
    }

    let url = URL(string: "http://127.0.0.1:1/keys/media-token")!
    let now = Fixtures.issue.addingTimeInterval(1)

    @Test func rotationThroughRefreshAndFailedRefreshKeepsKeys() async throws {
        let fetcher = FakeFetcher(try Fixtures.certificatePEM(for: Fixtures.currentKey))
        let source = try await RemoteKeySource.load(from: url, fetcher: fetcher)
        let verifier = MediaTokenVerifier(keys: source)
        let current = Fixtures.serialized(key: Fixtures.currentKey), next = Fixtures.serialized(key: Fixtures.nextKey)
        #expect(await verifier.verify(current, requestor: "REF", resource: "news", now: now).isValid)
        #expect(await verifier.verify(next, requestor: "REF", resource: "news", now: now).status == .invalidSignature)

        // The service starts publishing the next key alongside the current one.
        fetcher.set(try Fixtures.certificatePEM(for: Fixtures.nextKey) + Fixtures.certificatePEM(for: Fixtures.currentKey))
        try await source.refresh()
        #expect(source.currentKeys.keys.count == 2)
        #expect(await verifier.verify(next, requestor: "REF", resource: "news", now: now).isValid)
        #expect(await verifier.verify(current, requestor: "REF", resource: "news", now: now).isValid)

        // A failed refresh keeps the last good keys and reports the failure.
        fetcher.fail()
        await #expect(throws: VerificationKeyError.self) { try await source.refresh() }
        #expect(source.lastRefresh.succeeded == false)
        #expect(source.currentKeys.keys.count == 2)

        // A bundle with a bad block is refused as a whole.
        fetcher.set(try Fixtures.certificatePEM(for: Fixtures.nextKey) + Fixtures.currentKey.pemRepresentation)
        await #expect(throws: VerificationKeyError.self) { try await source.refresh() }
        #expect(source.currentKeys.keys.count == 2)

        // The old key is retired.
        fetcher.set(try Fixtures.certificatePEM(for: Fixtures.nextKey))
        try await source.refresh()
        #expect(source.lastRefresh == .init(succeeded: true, error: nil, keyCount: 1))
        #expect(await verifier.verify(current, requestor: "REF", resource: "news", now: now).status == .invalidSignature)
    }

    @Test func loadFailsWhenTheFirstFetchFails() async {
        let fetcher = FakeFetcher("")
        fetcher.fail()
        let error = await #expect(throws: VerificationKeyError.self) { try await RemoteKeySource.load(from: url, fetcher: fetcher) }
        #expect(error?.code == .fetchFailed)
    }

    @Test func runRefreshesPeriodicallyUntilCancelled() async throws {
        let fetcher = FakeFetcher(try Fixtures.certificatePEM(for: Fixtures.currentKey))
        let source = try await RemoteKeySource.load(from: url, fetcher: fetcher)
        fetcher.set(try Fixtures.certificatePEM(for: Fixtures.nextKey))
        let task = Task { await source.run(every: .milliseconds(5), retryAfter: .milliseconds(5)) }
        for _ in 0..<2000 where fetcher.calls.withLock({ $0 }) < 4 {
            try await Task.sleep(for: .milliseconds(5))
        }
        task.cancel()
        await task.value
        #expect(fetcher.calls.withLock { $0 } >= 4)
        #expect(source.currentKeys.keys[0].derRepresentation == Fixtures.nextKey.publicKey.derRepresentation)
    }

    @Test func urlSessionFetcherAgainstALocalServer() async throws {
        let pem = try Fixtures.certificatePEM(for: Fixtures.currentKey) + Fixtures.certificatePEM(for: Fixtures.nextKey)
        let server = try LocalHTTPServer(response: .init(status: 200, contentType: "application/x-pem-file", body: Data(pem.utf8)))
        defer { server.stop() }
        let source = try await RemoteKeySource.load(from: server.url)
        #expect(source.currentKeys.keys.count == 2)
        #expect(
            await MediaTokenVerifier(keys: source).verify(
                Fixtures.serialized(key: Fixtures.nextKey), requestor: "REF",
                resource: "news", now: now
            ).isValid)

        server.setResponse(.init(status: 503, contentType: "text/plain", body: Data("down".utf8)))
        let error = await #expect(throws: VerificationKeyError.self) { try await source.refresh() }
        #expect(error?.code == .fetchFailed)
        #expect(error?.detail.contains("503") == true)
        #expect(source.currentKeys.keys.count == 2)

        server.setResponse(.init(status: 200, contentType: "application/x-pem-file", body: Data("<html>oops</html>".utf8)))
        let pemError = await #expect(throws: VerificationKeyError.self) { try await source.refresh() }
        #expect(pemError?.code == .invalidPEM)
        #expect(server.requestCount == 3)
    }

    @Test func unreachableServerIsFetchFailed() async throws {
        let server = try LocalHTTPServer(response: .init(status: 200, contentType: "text/plain", body: Data()))
        let url = server.url
        server.stop()
        let error = await #expect(throws: VerificationKeyError.self) {
            try await URLSessionKeyBundleFetcher(timeout: .seconds(5)).fetchKeyBundle(from: url)
        }
        #expect(error?.code == .fetchFailed)
    }
}
