import EntitleModel
import EntitleStorage
import Foundation

/// Second-screen registration codes: 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L, U),
/// case-insensitive. 31^8 ≈ 8.5 × 10^11 codes, valid 30 minutes, with rate-limited lookups: not guessable.
package enum RegistrationCode {
    package static let alphabet = Array("ABCDEFGHJKMNPQRSTVWXYZ23456789")
    package static let length = 8

    /// A new random code.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// The canonical form of user input, or nil when it cannot be a code.
    package static func normalize(_ input: String) -> String? {
        let cleaned = input.uppercased().filter { !$0.isWhitespace && $0 != "-" }
        guard cleaned.count == length, cleaned.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return cleaned
    }
}
