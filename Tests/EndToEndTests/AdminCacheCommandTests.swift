import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin` in its own process changes what a running instance keeps in memory: a cache flush, an
/// authorization TTL and a client revocation reach the instance through the shared catalog version.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AdminCacheCommandTests {
    @Test func flushTTLAndRevocationFromAnotherProcessReachTheRunningService() async throws {
        try await LocalService.run { service in
            let cache = service.service.caches.authorizations
            // The admin process opens the same storage as the service: the data directory, or its PostgreSQL database.
            let storage = service.host.configuration.databaseURL.map { ["--database-url", $0] } ?? []
            func admin(_ arguments: [String]) async throws -> DeviceProcess.Result {
                try await AdminCommandTests.admin(service, arguments + storage)
            }
            let tv = try await service.client()
            _ = try await service.signIn(tv, user: "bob")
            func authorized() async throws -> Bool {
                try await tv.decisions("authorize", mvpd: "DemoCable", resources: ["news"]).decode(DecisionsResponse.self).decisions[0].authorized
            }
            #expect(try await authorized())
            #expect(try await authorized())
            let start = cache.mvpdCalls

            let flush = try await admin(["cache", "flush"])
            #expect(flush.status == 0, "\(flush.stderr)")
            #expect(flush.stdout.contains("caches flushed"))
            #expect(try await authorized())
            #expect(cache.mvpdCalls == start + 1)

            let ttl = try await admin(["authz-ttl", "set", "--mvpd", "DemoCable", "--seconds", "0"])
            #expect(ttl.status == 0, "\(ttl.stderr)")
            #expect(try await admin(["authz-ttl", "list"]).stdout.contains("*\tDemoCable\t0"))
            #expect(try await admin(["authz-ttl", "set", "--mvpd", "Nope", "--seconds", "5"]).status != 0)
            #expect(try await authorized())
            #expect(try await authorized())
            #expect(cache.mvpdCalls == start + 3)

            let clientID = try #require(await service.service.tokens.verify(accessToken: tv.accessToken ?? "")?.sub)
            #expect(try await admin(["client", "revoke", clientID]).status == 0)
            #expect(try await tv.send(.GET, "/api/v2/REF/configuration").status == 401)
        }
    }
}
