import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import NIOFoundationCompat

/// `GET /readyz`: whether this instance can serve — its database answers (the catalog's version row is read, so the
/// schema is there) within ``timeout``, and its keys are loaded. `503` otherwise, so that a load balancer stops
/// sending traffic to an instance whose database is gone and resumes when it is back. `/healthz` stays the liveness
/// check (the process answers), which must not fail with the database.
package struct ReadinessCheck: Sendable {
    /// Whether the database answers.
    package let databaseAnswers: @Sendable () async -> Bool
    package let keys: ServiceKeys
    /// How long the database may take to answer.
    package var timeout: Duration = .seconds(2)

    /// Why the instance is not ready, nil when it is.
    package func problem() async -> String? {
        let database = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await databaseAnswers() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard database == true else { return database == nil ? "database did not answer in time" : "database unreachable" }
        guard (try? await keys.keys(purpose: .mediaToken))?.all.isEmpty == false else { return "signing keys not loaded" }
        return nil
    }

    /// The route's answer.
    package func response() async -> Response {
        if let problem = await problem() {
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(data: JSONCoding.encode(["status": "unavailable", "reason": problem]))))
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(data: JSONCoding.encode(["status": "ready"]))))
    }

    /// Creates the value from each of its stored properties.
    package init(databaseAnswers: @escaping @Sendable () async -> Bool, keys: ServiceKeys, timeout: Duration = .seconds(2)) {
        self.databaseAnswers = databaseAnswers
        self.keys = keys
        self.timeout = timeout
    }
}
