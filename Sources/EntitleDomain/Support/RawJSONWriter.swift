import EntitleModel
import EntitleStorage

/// Writes JSON pieces into memory the caller has sized (``DecisionsJSON`` counts the text first): plain copies, no
/// capacity or exclusivity checks per piece. Strings are written as they are (the caller has checked that none needs
/// escaping); writing past the memory it was given is a programming error and traps.
package struct RawJSONWriter {
    /// The most bytes a decimal `Int64` takes (`-9223372036854775808`).
    package static let maximumIntegerLength = 20

    private let memory: UnsafeMutableRawBufferPointer
    /// The bytes written so far.
    private(set) var count = 0

    package init(_ memory: UnsafeMutableRawBufferPointer) { self.memory = memory }

    package mutating func write(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `text` between quotes, unescaped.
    package mutating func writeQuoted(_ text: String) {
        write("\"")
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        write("\"")
    }

    /// `value` in decimal.
    package mutating func write(_ value: Int64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, filled from the end
        withUnsafeMutableBytes(of: &digits) { scratch in
            var magnitude = value.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                scratch[start] = UInt8(ascii: "-")
            }
            append(UnsafeRawBufferPointer(rebasing: scratch[start...]))
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(count + bytes.count <= memory.count, "RawJSONWriter: the memory is too small")
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (memory.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }
}
