#if canImport(Glibc)
import EntitleModel
import EntitleStorage
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address range in CIDR notation (`10.0.0.0/8`, `192.0.2.7`, `fd00::/8`, `::1`): the trusted proxies
/// of `entitle serve --trusted-proxy`. An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`) counts as its IPv4 address.
package struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's address bytes (4 or 16).
    package let network: [UInt8]
    /// The prefix length in bits.
    package let prefixLength: Int

    /// Parses `address[/prefix]`; nil when it is not an IP address or the prefix is out of range.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...bits).contains(value) else { return nil }
            prefix = value
        }
        network = Self.masked(bytes, prefix)
        prefixLength = prefix
    }

    /// Whether `address` (textual, as a socket peer or a forwarded header gives it) is in the range.
    package func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address), bytes.count == network.count else { return false }
        return Self.masked(bytes, prefixLength) == network
    }

    /// The range as written in CIDR notation.
    package var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = network.count == 4 ? AF_INET : AF_INET6
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return "\(address)/\(prefixLength)"
    }

    /// Whether `text` is an IP address (v4 or v6, no brackets, no port).
    package static func isAddress(_ text: String) -> Bool { bytes(text) != nil }

    /// The address's bytes: 4 for IPv4 (and IPv4-mapped IPv6), 16 for IPv6.
    package static func bytes(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return Array(bytes[12...]) }
        return bytes
    }

    package static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bitsHere = min(max(prefix - index * 8, 0), 8)
            return bitsHere == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xff << (8 - bitsHere))
        }
    }
}

extension Array where Element == IPAddressRange {
    /// Whether `address` is in one of the ranges.
    package func containsAddress(_ address: String) -> Bool { contains { $0.contains(address) } }
}
