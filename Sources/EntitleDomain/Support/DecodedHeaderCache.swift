import EntitleCore
import EntitleModel
import EntitleStorage

/// Header values already decoded by this instance (`X-Device-Info`, `AP-Device-Identifier`: a device sends the same
/// value on every call), so the Base64 and JSON decoding happen once per distinct value. Only valid values are kept.
/// Bounded: values longer than `maximumLength` bytes are decoded every time, and past `capacity` values, everything is
/// dropped (at most 4,096 × 2 KiB of keys).
package final class DecodedHeaderCache<Value: Sendable>: Sendable {
    package let maximumLength = 2048
    private let decoded: BoundedMemo<String, Value>

    package init(capacity: Int = 4096) { decoded = BoundedMemo(capacity: capacity) }

    /// The decoded header, from memory or from `decode` (whose errors are rethrown and not kept).
    package func decode(_ header: String, _ decode: (String) throws(EnhancedError) -> Value) throws(EnhancedError) -> Value {
        guard header.utf8.count <= maximumLength else { return try decode(header) }
        return try decoded.value(for: header) { () throws(EnhancedError) in try decode(header) }
    }
}
