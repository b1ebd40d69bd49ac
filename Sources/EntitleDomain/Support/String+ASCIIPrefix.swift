import EntitleModel
import EntitleStorage

extension String {
    /// Whether the string starts with `prefix`, ASCII letters compared without case (a media type such as
    /// `Application/JSON`), without building a lowercased copy.
    package func hasASCIIPrefixIgnoringCase(_ prefix: StaticString) -> Bool {
        var text = self
        return text.withUTF8 { bytes in
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            for (index, byte) in expected.enumerated() where Self.asciiLowercase(bytes[index]) != Self.asciiLowercase(byte) {
                return false
            }
            return true
        }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
