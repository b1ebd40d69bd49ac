import EntitleCore
import EntitleModel
import EntitleStorage

/// The platform of a client as the reports and `/metrics` count it: a small fixed set read from the device information
/// the client sends (`X-Device-Info`), so that a client cannot add report rows or metric series by sending odd values.
package enum ReportPlatform {
    /// Every platform the reports know, `other` (information that names none of them) and `unknown` (none sent).
    package static let all = ["iOS", "tvOS", "Android", "AndroidTV", "FireTV", "Roku", "web", "other", "unknown"]

    /// The platform of a client that sent `info` (nil: it sent none). Runs on every decision: each field's bytes are
    /// searched ignoring ASCII case, with no lowercased copies and no Foundation string search.
    package static func of(_ info: DeviceInfo?) -> String {
        guard let info else { return "unknown" }
        let os = Array((info.osName ?? info.osFamily ?? "").utf8)
        let hardware = Array((info.primaryHardwareType ?? "").utf8)
        let makers = [info.manufacturer, info.vendor, info.model].compactMap { $0.map { Array($0.utf8) } }
        func maker(_ needle: StaticString) -> Bool { makers.contains { contains($0, needle) } }
        let television = contains(hardware, "tv") || contains(hardware, "settop") || contains(hardware, "set-top")
        if contains(os, "tvos") { return "tvOS" }
        if contains(os, "ios") || contains(os, "ipados") { return "iOS" }
        if contains(os, "fire") || maker("amazon") || maker("aft") { return "FireTV" }
        if contains(os, "roku") || maker("roku") { return "Roku" }
        if contains(os, "android") { return television ? "AndroidTV" : "Android" }
        if info.browserName?.isEmpty == false || info.userAgent?.isEmpty == false { return "web" }
        return "other"
    }

    /// Whether `bytes` contain `needle` (lowercase ASCII), ignoring ASCII case.
    package static func contains(_ bytes: [UInt8], _ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where lowered(bytes[start]) == first {
            var index = 1
            while index < pattern.count, lowered(bytes[start + index]) == pattern[index] { index += 1 }
            if index == pattern.count { return true }
        }
        return false
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
