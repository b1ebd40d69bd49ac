import Foundation

/// The `withData:` dictionaries of `getAuthentication` / `getAuthorization` (protocol notes §9.1): the data the
/// Promotional TempPass keys its pass on. The programmer hashes the user identifier (SHA-256 recommended) and the SDK
/// sends the dictionary as given, as `AP-TempPass-Identity: base64(JSON)` (the header REST v2 clients send; v1's
/// `generic_data`), with the session it creates and with the authorization decisions of that call.
extension EntitlementEngine {
    /// `AP-TempPass-Identity`: Base64 of the JSON object of `data` with sorted keys, every value as given: strings,
    /// numbers, booleans, arrays and dictionaries as JSON values (a value JSON cannot carry, such as NaN, as its
    /// text); nil when there is no data.
    static func tempPassIdentity(_ data: [String: any Sendable]?) -> String? {
        guard let data, !data.isEmpty else { return nil }
        let object = data.mapValues(Self.jsonValue)
        guard let json = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
        return json.base64EncodedString()
    }

    /// A `withData:` value as a JSON value for `JSONSerialization`, by its exact type (on Apple platforms `1 as? Bool`
    /// succeeds through NSNumber, so a cast alone would turn numbers into booleans).
    static func jsonValue(_ value: any Sendable) -> Any {
        let type = type(of: value)
        if let text = value as? String { return text }
        if type == Bool.self, let flag = value as? Bool { return flag }
        if type == Int.self, let number = value as? Int { return number }
        if type == Int32.self, let number = value as? Int32 { return Int(number) }
        if type == Int64.self, let number = value as? Int64 { return number }
        if type == UInt32.self, let number = value as? UInt32 { return Int(number) }
        if type == Double.self, let number = value as? Double { return number.isFinite ? number : String(number) }
        if let list = value as? [any Sendable] { return list.map(jsonValue) }
        if let object = value as? [String: any Sendable] { return object.mapValues(jsonValue) }
        return String(describing: value)
    }
}
