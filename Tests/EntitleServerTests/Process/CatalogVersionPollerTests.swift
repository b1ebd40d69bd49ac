import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import Testing

/// The host's catalog version poller keeps the catalog cache fresh on its own, so that no request waits for the
/// version read, and a change made by another process is seen without any request. Real SQLite database in a
/// temporary directory; generous waits, and no assertion on freshness itself: under the parallel full suite one read
/// can take longer than the whole interval.
@Suite struct CatalogVersionPollerTests {
    @Test func thePollerReadsTheVersionAndSeesAChangeMadeElsewhereWithoutRequests() async throws {
        let directory = NSTemporaryDirectory() + "entitle-poller-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let logger = Logger(label: "entitle.test")
        let engine = try await DatabaseEngine.sqlite(path: directory + "/entitle.sqlite", logger: logger)
        let repository = Repository(sql: engine.sql, catalogRefresh: .milliseconds(400))
        try await repository.migrate(logger: logger)
        let cache = repository.catalogCache
        #expect(!cache.isFresh(), "nothing read yet")

        // The first version read moves the generation (from "never read"); the poller makes it without any request.
        let unread = cache.generation
        let poller = Task { try await CatalogVersionPoller(repository: repository, logger: logger).run() }
        #expect(try await ConnectionLimitTests.eventually(within: 30) { cache.generation != unread }, "the poller did not read the version")
        // A catalog change by another process (as `entitle admin` makes) drops this cache, though nothing reads it.
        let generation = cache.generation
        try await Repository(sql: engine.sql).catalogChanged()
        #expect(try await ConnectionLimitTests.eventually(within: 30) { cache.generation != generation }, "the change made elsewhere was not seen")
        poller.cancel()
        _ = await poller.result
        try await engine.close()
    }

    /// The poller reads ahead: at half the interval a read is due for it, while a request still finds the cache fresh.
    @Test func aReadAheadIsDueBeforeTheCacheGoesStale() async throws {
        let cache = CatalogCache(refreshInterval: .seconds(30))
        let first = cache.versionCheckDue()
        cache.versionRead(1, at: first.startedAt)
        #expect(cache.isFresh())
        #expect(!cache.versionCheckDue().due, "a request reads again only after the whole interval")
        #expect(cache.versionCheckDue(olderThan: .zero).due, "the poller reads before it")
    }
}
