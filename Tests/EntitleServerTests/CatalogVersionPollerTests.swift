import EntitleHost
@testable import EntitleServer
import Foundation
import Logging
import Testing

/// The host's catalog version poller keeps the catalog cache fresh on its own, so that no request waits for the
/// version read, and a change made by another process is still seen within the refresh interval. Real SQLite database
/// in a temporary directory; intervals of 400 ms and waits of several intervals, so a loaded machine cannot fail it.
@Suite struct CatalogVersionPollerTests {
    @Test func theCacheStaysFreshWithoutRequestsAndSeesAChangeMadeElsewhere() async throws {
        let directory = NSTemporaryDirectory() + "entitle-poller-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let logger = Logger(label: "entitle.test")
        let engine = try await DatabaseEngine.sqlite(path: directory + "/entitle.sqlite", logger: logger)
        let interval = Duration.milliseconds(400)
        let repository = Repository(sql: engine.sql, catalogRefresh: interval)
        try await repository.migrate(logger: logger)
        let cache = repository.catalogCache
        #expect(!cache.isFresh(), "nothing read yet")

        let poller = Task { try await CatalogVersionPoller(repository: repository, logger: logger).run() }
        // The first read happens within half an interval; from then on the cache never goes stale.
        try await Task.sleep(for: interval)
        var staleSamples = 0
        for _ in 0..<20 {
            if !cache.isFresh() { staleSamples += 1 }
            try await Task.sleep(for: interval / 8)
        }
        #expect(staleSamples == 0, "the cache went stale \(staleSamples) times while the poller ran")

        // A catalog change by another process (as `entitle admin` makes): seen without any read of the catalog here.
        let generation = cache.generation
        try await Repository(sql: engine.sql).catalogChanged()
        try await Task.sleep(for: interval * 2)
        #expect(cache.generation != generation, "the change was not seen within the bound")

        poller.cancel()
        _ = await poller.result
        try await engine.close()
    }
}
