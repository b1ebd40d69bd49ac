import Crypto
import _CryptoExtras
import EntitleModel
import EntitleStorage
import Foundation
import Synchronization

/// Operator passwords, stored as scrypt hashes (memory-hard, swift-crypto's BoringSSL implementation):
/// `scrypt$<log2 N>$<r>$<p>$<salt, Base64URL>$<key, Base64URL>`, so the cost can be raised later without breaking
/// stored hashes.
package enum OperatorPassword {
    /// log2 of scrypt's N for new hashes: 2^16 × 128 × r bytes = 64 MiB of memory per hash.
    package static let logRounds = 16
    package static let blockSize = 8
    package static let parallelism = 1
    package static let keyBytes = 32
    /// The shortest password accepted.
    package static let minimumLength = 12

    /// A refused password.
    package struct Refused: Error, CustomStringConvertible {
        /// Why.
        package var description: String

        /// Creates the value from each of its stored properties.
        package init(description: String) {
            self.description = description
        }
    }

    /// Checks a new password's length and hashes it.
    package static func hash(_ password: String, logRounds: Int = OperatorPassword.logRounds) throws -> String {
        guard password.count >= minimumLength else {
            throw Refused(description: "the password must have at least \(minimumLength) characters")
        }
        guard password.count <= 1024 else { throw Refused(description: "the password must have at most 1024 characters") }
        let salt = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let key = try derive(password, salt: salt, logRounds: logRounds, blockSize: blockSize, parallelism: parallelism)
        return ["scrypt", "\(logRounds)", "\(blockSize)", "\(parallelism)", salt.base64URLEncodedString(), key.base64URLEncodedString()]
            .joined(separator: "$")
    }

    /// Whether `password` matches a stored hash (compared in constant time); false for a malformed hash.
    package static func verify(_ password: String, hash stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let logRounds = Int(parts[1]), (10...22).contains(logRounds),
            let blockSize = Int(parts[2]), (1...32).contains(blockSize), let parallelism = Int(parts[3]), (1...16).contains(parallelism),
            let salt = Data(base64URLEncoded: parts[4]), let expected = Data(base64URLEncoded: parts[5]), expected.count == keyBytes,
            password.utf8.count <= 4096,
            let key = try? derive(password, salt: salt, logRounds: logRounds, blockSize: blockSize, parallelism: parallelism)
        else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(key, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// Decoy hashes made so far, by log2 N: each is made on first use, never at start (one scrypt at 2^16 costs more
    /// than a second in a debug build, and a command line run never checks a password).
    private static let decoys = Mutex<[Int: String]>([:])

    /// A hash of a random password at `logRounds`, checked for unknown names so they cost what a known one does.
    /// Made once per cost and kept; every sign-in asks for it first (`OperatorAccounts.signIn`), known name or not.
    package static func decoy(logRounds: Int = OperatorPassword.logRounds) -> String {
        decoys.withLock { made in
            if let decoy = made[logRounds] { return decoy }
            let decoy = (try? hash(Secrets.randomToken(bytes: 24), logRounds: logRounds)) ?? ""
            made[logRounds] = decoy
            return decoy
        }
    }

    private static func derive(_ password: String, salt: Data, logRounds: Int, blockSize: Int, parallelism: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Data(password.utf8), salt: salt, outputByteCount: keyBytes, rounds: 1 << logRounds, blockSize: blockSize,
            parallelism: parallelism, maxMemory: (1 << logRounds) * 128 * blockSize * parallelism + (1 << 20))
        return key.withUnsafeBytes { Data($0) }
    }
}
