import Crypto
import EntitleCore
import Foundation

/// Random identifiers and secret hashing.
package enum Secrets {
    /// `count` random bytes as lowercase hex.
    package static func randomHex(bytes count: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// A URL-safe random secret.
    package static func randomToken(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return data.base64URLEncodedString()
    }

    /// SHA-256 of a string, lowercase hex.
    package static func sha256Hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Constant-time comparison of two strings.
    package static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
