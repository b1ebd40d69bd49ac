import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A tiny blocking HTTP/1.1 server on 127.0.0.1 (ephemeral port) that answers every request with the current
/// canned response, for testing the real `URLSession` fetcher. Stopped by ``stop()``.
final class LocalHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var contentType: String
        var body: Data
    }

    let port: UInt16
    private let listener: Int32
    private let response: Mutex<Response>
    private let served = Mutex(0)

    init(response: Response) throws {
        self.response = Mutex(response)
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/keys/media-token")! }
    var requestCount: Int { served.withLock { $0 } }

    func setResponse(_ new: Response) { response.withLock { $0 = new } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: Array("\r\n\r\n".utf8)) && request.count < 65_536 {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                request += buffer[0..<n]
            }
            served.withLock { $0 += 1 }
            let current = response.withLock { $0 }
            var out = Data(
                "HTTP/1.1 \(current.status) X\r\nContent-Type: \(current.contentType)\r\nContent-Length: \(current.body.count)\r\nConnection: close\r\n\r\n"
                    .utf8)
            out.append(current.body)
            out.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(client, raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(client)
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
