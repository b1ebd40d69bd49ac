import Foundation

/// Standard Base64 (RFC 4648 §4, with `=` padding) written straight into a byte buffer: the same text as Foundation's
/// `base64EncodedData()`, without `Data`'s storage and exclusivity bookkeeping (a media token is encoded twice per
/// authorize, which cost about 12,000 instructions through `Data`).
enum Base64Bytes {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The length of the encoding of `count` bytes.
    static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// Appends the encoding of `bytes` to `out`.
    static func append(_ bytes: some ContiguousBytes, to out: inout [UInt8]) {
        bytes.withUnsafeBytes { input in
            let start = out.count
            out.append(contentsOf: repeatElement(UInt8(ascii: "="), count: encodedCount(input.count)))
            alphabet.withUnsafeBufferPointer { table in
                out.withUnsafeMutableBufferPointer { output in
                    var from = 0
                    var to = start
                    while from + 3 <= input.count {
                        let group = UInt32(input[from]) << 16 | UInt32(input[from + 1]) << 8 | UInt32(input[from + 2])
                        output[to] = table[Int(group >> 18)]
                        output[to + 1] = table[Int(group >> 12 & 0x3F)]
                        output[to + 2] = table[Int(group >> 6 & 0x3F)]
                        output[to + 3] = table[Int(group & 0x3F)]
                        from += 3
                        to += 4
                    }
                    // One or two bytes left: two or three characters, the rest stays `=`.
                    let left = input.count - from
                    guard left > 0 else { return }
                    let group = UInt32(input[from]) << 16 | (left == 2 ? UInt32(input[from + 1]) << 8 : 0)
                    output[to] = table[Int(group >> 18)]
                    output[to + 1] = table[Int(group >> 12 & 0x3F)]
                    if left == 2 { output[to + 2] = table[Int(group >> 6 & 0x3F)] }
                }
            }
        }
    }
}
