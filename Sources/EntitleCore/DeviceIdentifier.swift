import Foundation

/// The `AP-Device-Identifier` header: `fingerprint <base64(stable device id)>`.
public struct DeviceIdentifier: Sendable, Equatable, Hashable {
    /// The decoded device id.
    public let value: String

    /// The longest device id accepted, in bytes.
    public static let maximumLength = 512

    /// Creates an identifier from a raw device id.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength,
            rawValue.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F })
        else { return nil }
        value = rawValue
    }

    /// Parses a header value; throws ``EnhancedError/invalidDeviceIdentifier`` when missing or malformed.
    public static func parse(header: String?) throws(EnhancedError) -> DeviceIdentifier {
        guard let header else { throw EnhancedError.invalidDeviceIdentifier }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "fingerprint", parts[1].count <= 1024,
            let data = Data(base64Lenient: String(parts[1])), let text = String(data: data, encoding: .utf8),
            let identifier = DeviceIdentifier(rawValue: text)
        else {
            throw EnhancedError.invalidDeviceIdentifier
        }
        return identifier
    }

    /// The header value for this identifier.
    public var headerValue: String { "fingerprint " + Data(value.utf8).base64EncodedString() }
}
