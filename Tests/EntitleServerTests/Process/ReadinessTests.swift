import EntitleClients
import EntitleTesting
import Foundation
import Testing

/// `/healthz` says the process answers; `/readyz` says the instance can serve — 503 while its database is gone,
/// 200 again once it is back.
@Suite struct ReadinessTests {
    static func status(_ client: RESTClient, _ path: String) async -> Int {
        (try? await client.send(.GET, path, authorized: false).status) ?? 0
    }

    /// Polls `path` until it answers `status` (up to `seconds`).
    static func eventually(_ client: RESTClient, _ path: String, is status: Int, within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await Self.status(client, path) == status { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }

    @Test func readyOnSQLite() async throws {
        try await RouterService.run { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            let answer = try await client.send(.GET, "/readyz", authorized: false)
            #expect(answer.status == 200)
            #expect(answer.text == #"{"status":"ready"}"#)
        }
    }

    @Test func notReadyWhilePostgreSQLIsStoppedAndReadyAgainAfter() async throws {
        guard let postgres = try ThrowawayPostgres() else { return }  // PostgreSQL not installed
        defer { postgres.remove() }
        try await LocalService.run(databaseURL: postgres.url, profileCacheBound: .zero) { host in
            let client = RESTClient(httpClient: host.httpClient, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "box")
            #expect(await Self.status(client, "/readyz") == 200)
            try postgres.stop()
            #expect(try await Self.eventually(client, "/readyz", is: 503, within: 10), "/readyz still ready with the database stopped")
            let answer = try await client.send(.GET, "/readyz", authorized: false)
            #expect(answer.text.contains(#""status":"unavailable""#))
            #expect(await Self.status(client, "/healthz") == 200, "liveness must not depend on the database")
            try postgres.start()
            #expect(try await Self.eventually(client, "/readyz", is: 200, within: 20), "/readyz did not recover after PostgreSQL restarted")
            #expect(try await client.send(.GET, "/api/v2/REF/configuration", authorized: false).status == 401)
        }
    }
}
