import Crypto
import EntitleCore
import Foundation

/// Tracking data (API reference, "Tracking Events"), shared by the authentication and authorization flows: the data
/// arrays of `sendTrackingData`, with the MD5-hashed user GUID computed once per user.
final class TrackingReporter {
    /// MD5-hashed user GUIDs, by user.
    private var guidCache: [String: String] = [:]

    /// Creates the reporter with no GUID computed.
    init() {}

    /// Device type (`computer`, `tablet`, `mobile`, `gameconsole`, `unknown`), AccessEnabler client type (`ios`: this
    /// SDK implements the iOS/tvOS AccessEnabler) and operating system, in the API reference's vocabulary.
    func deviceFields(in engine: isolated EntitlementEngine) -> [String] {
        let configuration = engine.requestor.configurations.first?.configuration
        return [Self.trackedDeviceType(configuration?.device), "ios", configuration?.os ?? "unknown"]
    }

    /// A `primaryHardwareType` as the tracking device type.
    static func trackedDeviceType(_ hardware: String?) -> String {
        switch hardware?.lowercased() {
        case "desktop", "laptop", "computer": "computer"
        case "tablet": "tablet"
        case "mobilephone", "mobile", "phone": "mobile"
        case "gamesconsole", "gameconsole": "gameconsole"
        default: "unknown"
        }
    }

    /// The MD5-hashed user GUID of a profile.
    func hashedGUID(_ profile: Profile?) -> String {
        guard let profile else { return "" }
        let user = profile.attributes["userID"]?.value.stringValue ?? profile.issuer + String(profile.notBefore)
        if let cached = guidCache[user] { return cached }
        let digest = Self.hex(Insecure.MD5.hash(data: Data(user.utf8)))
        guidCache[user] = digest
        return digest
    }

    /// Lower-case hex of `bytes`.
    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        for byte in bytes {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `TRACKING_AUTHENTICATION`: success, MVPD id, GUID, cached, device type, client type, OS.
    func authentication(
        succeeded success: Bool, mvpd: String?, profile: Profile?, cached: Bool, in engine: isolated EntitlementEngine
    ) -> AccessEnablerEvent {
        let data =
            [
                success ? "true" : "false", success ? (mvpd ?? "") : "", success ? hashedGUID(profile) : "",
                success && cached ? "true" : "false",
            ] + deviceFields(in: engine)
        return .sendTrackingData(data: data, eventType: TRACKING_AUTHENTICATION)
    }

    /// `TRACKING_AUTHORIZATION`: success, MVPD id, GUID, token in cache (the resource's decision was still valid on
    /// the device when the request started), error, details, device type, client type, OS.
    func authorization(
        succeeded success: Bool, mvpd: String?, profile: Profile?, cached: Bool, error: String, details: String,
        in engine: isolated EntitlementEngine
    ) -> AccessEnablerEvent {
        let data =
            [success ? "true" : "false", mvpd ?? "", hashedGUID(profile), cached ? "true" : "false", error, details]
            + deviceFields(in: engine)
        return .sendTrackingData(data: data, eventType: TRACKING_AUTHORIZATION)
    }
}
