#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// A plain TCP connection to 127.0.0.1 for tests that must misbehave as an HTTP client (partial headers, silence,
/// oversized headers). Blocking calls run on a dispatch thread, never on the test's cooperative executor.
final class RawConnection: Sendable {
    let descriptor: Int32
    /// The client's own port, to find the server's end of this connection.
    let localPort: Int

    enum ReadOutcome: Equatable {
        case data(Data)
        case closed
        case timedOut
    }

    /// Connects to 127.0.0.1:`port` from `source` (any 127.x.y.z address is this machine's loopback too).
    init(port: Int, from source: String? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                Glibc.close(fd)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        localPort = Int(UInt16(bigEndian: local.sin_port))
    }

    /// Sends all of `text` (false when the server has closed or reset the connection).
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends what fits without waiting (false when the connection is closed or reset).
    @discardableResult
    func sendWithoutWaiting(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return sent >= 0 || errno == EAGAIN || errno == EWOULDBLOCK
    }

    /// Sends all of `text` unless the server stops reading: whenever the send buffer is full it waits (up to `seconds` in
    /// all) for room, and it stops early when the server has closed or reset the connection. A single non-blocking send
    /// may take only part of a large request on a busy machine, and the server would then wait for the rest.
    func sendAll(_ text: String, within seconds: Double = 10) {
        let bytes = Array(text.utf8)
        let deadline = Date().addingTimeInterval(seconds)
        var offset = 0
        while offset < bytes.count, Date() < deadline {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, 100)
            } else {
                return
            }
        }
    }

    /// Sends without waiting until the peer's receive window and this socket's send buffer are full (or 64 MB went).
    func fillSendBuffer() {
        let chunk = [UInt8](repeating: 0x62, count: 65_536)
        for _ in 0..<1024 {
            let sent = chunk.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent <= 0 { return }
        }
    }

    /// Waits up to `seconds` for bytes or the end of the stream.
    func read(timeout seconds: Double) async -> ReadOutcome {
        await Self.blocking { self.readNow(timeout: seconds) }
    }

    /// Reads until the server closes its side (true) or `seconds` pass (false); returns what was read.
    func readUntilClosed(timeout seconds: Double) async -> (data: Data, closed: Bool) {
        await Self.blocking {
            let deadline = Date().addingTimeInterval(seconds)
            var received = Data()
            while true {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return (received, false) }
                switch self.readNow(timeout: left) {
                case .data(let data): received += data
                case .closed: return (received, true)
                case .timedOut: return (received, false)
                }
            }
        }
    }

    /// Stops sending (FIN), keeping the socket open for reading.
    func shutdownOutput() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// Closes the socket.
    func close() { _ = Glibc.close(descriptor) }

    private func readNow(timeout seconds: Double) -> ReadOutcome {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, seconds) * 1000))
        guard ready > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count > 0 { return .data(Data(buffer[0..<count])) }
        return .closed  // 0: orderly close; < 0: reset
    }

    static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// Whether this process still holds a descriptor for the server's end of the connection from client port
    /// `clientPort` to server port `serverPort` (read from /proc).
    static func serverHoldsSocket(serverPort: Int, clientPort: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9 else { continue }
            let local = fields[1].split(separator: ":"), remote = fields[2].split(separator: ":")
            guard local.count == 2, remote.count == 2, Int(local[1], radix: 16) == serverPort,
                Int(remote[1], radix: 16) == clientPort, fields[9] != "0"
            else { continue }
            inodes.insert(String(fields[9]))
        }
        guard !inodes.isEmpty, let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
        for descriptor in descriptors {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor) else { continue }
            if target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast())) { return true }
        }
        return false
    }
}
