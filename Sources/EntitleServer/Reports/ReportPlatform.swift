import EntitleCore

/// The platform of a client as the reports and `/metrics` count it: a small fixed set read from the device information
/// the client sends (`X-Device-Info`), so that a client cannot add report rows or metric series by sending odd values.
package enum ReportPlatform {
    /// Every platform the reports know, `other` (information that names none of them) and `unknown` (none sent).
    package static let all = ["iOS", "tvOS", "Android", "AndroidTV", "FireTV", "Roku", "web", "other", "unknown"]

    /// The platform of a client that sent `info` (nil: it sent none).
    package static func of(_ info: DeviceInfo?) -> String {
        guard let info else { return "unknown" }
        let os = (info.osName ?? info.osFamily ?? "").lowercased()
        let hardware = (info.primaryHardwareType ?? "").lowercased()
        let maker = ((info.manufacturer ?? "") + " " + (info.vendor ?? "") + " " + (info.model ?? "")).lowercased()
        let television = hardware.contains("tv") || hardware.contains("settop") || hardware.contains("set-top")
        if os.contains("tvos") { return "tvOS" }
        if os.contains("ios") || os.contains("ipados") { return "iOS" }
        if os.contains("fire") || maker.contains("amazon") || maker.contains("aft") { return "FireTV" }
        if os.contains("roku") || maker.contains("roku") { return "Roku" }
        if os.contains("android") { return television ? "AndroidTV" : "Android" }
        if info.browserName?.isEmpty == false || info.userAgent?.isEmpty == false { return "web" }
        return "other"
    }
}
