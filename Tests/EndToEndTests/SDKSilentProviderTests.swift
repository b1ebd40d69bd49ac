import AccessEnabler
import EntitleCore
import EntitleHost
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import EntitleClients
import EntitleTesting
#endif

/// A TCP port that accepts connections (the kernel completes the handshake) and never answers: a service provider
/// that hangs.
final class SilentListener: Sendable {
    let descriptor: Int32
    let url: String

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw BrowserError("cannot listen") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        descriptor = fd
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// `setRequestor` with several service providers completes within a bounded time when one never answers.
@Suite struct SDKSilentProviderTests {
    @Test func aSilentServiceProviderIsNamedAndTheOthersAreUsed() async throws {
        try await LocalService.run { service in
            let silent = try SilentListener()
            defer { silent.close() }
            var configuration = AccessEnabler.Configuration(tokenStore: InMemoryTokenStore())
            configuration.configurationTimeout = 1
            // The silent provider must still be silent when the first answer arrives, however loaded the machine:
            // with the default 30 s, a slow first answer let the transport give up on it first (no CFG408).
            configuration.transport = URLSessionTransport(timeout: 600)
            let enabler = AccessEnabler(softwareStatement: service.softwareStatement, configuration: configuration)
            // Subscribed before `configure` starts: a stream made inside the task could miss events sent before
            // the task first runs.
            let events = enabler.events
            let statuses = Task { () -> [AccessEnablerStatus] in
                var seen: [AccessEnablerStatus] = []
                for await event in events {
                    if case .status(let status) = event { seen.append(status) }
                    if case .setRequestorComplete = event { return seen }
                }
                return seen
            }
            let mvpds = try await enabler.configure(requestorID: "REF", serviceProviders: [service.baseURL, silent.url])
            #expect(mvpds.contains { $0.ID == "DemoCable" })
            let seen = await statuses.value
            let reported = seen.filter { $0.errorID == AccessEnablerStatus.ID.serviceTimeout }
            #expect(reported.map { $0.extras["serviceProvider"] } == [silent.url], "statuses seen: \(seen.map(\.errorID))")
        }
    }
}
