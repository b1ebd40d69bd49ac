import Foundation

/// `setOptions` and the loosely typed values of the Objective-C-shaped API (`[AnyHashable: Any]` copied as Sendable values).
extension EntitlementEngine {
    /// `setOptions`: the four options of the API reference; any other key is reported (`unknownOption`) and not sent.
    func applyOptions(_ values: [String: any Sendable]) {
        for (key, value) in values {
            switch key {
            case OPTION_APPLICATION_PROFILE: options.applicationProfile = Self.string(value)
            case OPTION_VISITOR_ID: options.visitorID = Self.string(value)
            case OPTION_HANDLE_SVC: options.handleSVC = Self.bool(value) ?? false
            case OPTION_DEVICE_INFO: options.deviceInfoOverride = Self.string(value)
            default:
                // The spec lists these four; no other key has a form on the wire, so it is not sent — and the app is
                // told, instead of the key vanishing silently.
                emit([
                    .status(
                        AccessEnablerStatus(
                            errorID: AccessEnablerStatus.ID.unknownOption, level: .warning,
                            message: "setOptions: \(key) is not an option (applicationProfile, visitorID, handleSVC, device_info); it is not sent."))
                ])
            }
        }
    }

    /// An option or metadata value as text.
    static func string(_ value: any Sendable) -> String? {
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        if let number = value as? Int32 { return String(number) }
        if let number = value as? Double { return String(number) }
        if let flag = value as? Bool { return flag ? "true" : "false" }
        return nil
    }

    /// An option value as a flag.
    static func bool(_ value: any Sendable) -> Bool? {
        if let flag = value as? Bool { return flag }
        if let number = value as? Int { return number != 0 }
        if let text = value as? String { return ["true", "yes", "1"].contains(text.lowercased()) }
        return nil
    }

    /// A metadata value as a number.
    static func int(_ value: (any Sendable)?) -> Int? {
        guard let value else { return nil }
        if let number = value as? Int32 { return Int(number) }
        if let number = value as? Int { return number }
        if let number = value as? Int64 { return Int(number) }
        if let number = value as? UInt32 { return Int(number) }
        if let text = value as? String { return Int(text) }
        return nil
    }
}
