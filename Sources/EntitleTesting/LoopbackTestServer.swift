import Hummingbird
import NIOCore

/// Runs `router` on an ephemeral 127.0.0.1 port while `body` runs (given the server's base URL, no trailing slash),
/// then stops the server whatever `body` did; `beforeStopping` runs first (to release requests a stand-in holds).
package func withLoopbackServer(
    _ router: Router<BasicRequestContext>, beforeStopping: () -> Void = {}, _ body: (String) async throws -> Void
) async throws {
    let port = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in port.continuation.yield(channel.localAddress?.port ?? 0) })
    let server = Task { try await app.runService() }
    var iterator = port.stream.makeAsyncIterator()
    let bound = await iterator.next() ?? 0
    var failure: (any Error)?
    do { try await body("http://127.0.0.1:\(bound)") } catch { failure = error }
    beforeStopping()
    server.cancel()
    _ = await server.result
    if let failure { throw failure }
}
