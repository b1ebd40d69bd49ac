import Crypto
import EntitleCore
import Foundation

extension EntitlementEngine {
    /// `getSelectedProvider` → `selectedProvider(mvpd)`: the MVPD selected in an authentication flow under way, else
    /// the MVPD the user is authenticated with, else nil.
    func getSelectedProvider(reply: EngineCommand.Reply<MVPD?>?) {
        let id = authentication.selectedMVPD ?? local.authenticated(now: now())?.mvpd
        let mvpd = id.map { mvpdModel($0) ?? MVPD(ID: $0, displayName: $0, logoURL: "") }
        emit([.selectedProvider(mvpd: mvpd)])
        reply?(.success(mvpd))
    }

    /// `getMetadata`: answered from the local profile and decisions (no network).
    func getMetadata(_ keys: [String: any Sendable], reply: EngineCommand.Reply<MetadataResult>?) {
        let opcode = Self.int(keys[METADATA_OPCODE_KEY]).map(Int32.init) ?? METADATA_INVALID
        let authenticated = local.authenticated(now: now())
        var result = MetadataResult(value: nil, encrypted: false)
        switch opcode {
        case METADATA_AUTHENTICATION:
            if let entry = authenticated?.entry { result.value = .string(String(entry.profile.notAfter)) }
        case METADATA_AUTHORIZATION:
            if authenticated != nil, let resource = keys[METADATA_RESOURCE_ID_KEY].flatMap(Self.string),
                let notAfter = local.authorizations[resource], notAfter > nowMilliseconds
            {
                result.value = .string(String(notAfter))
            }
        case METADATA_DEVICE_ID:
            if settings.deviceIDMetadata { result.value = .string(deviceID) }
        case METADATA_USER_META:
            if let entry = authenticated?.entry, let name = keys[METADATA_USER_META_KEY].flatMap(Self.string),
                let attribute = entry.profile.attributes[name]
            {
                result = MetadataResult(value: attribute.value, encrypted: attribute.state == .encrypted)
            }
        default:
            break
        }
        let key =
            [METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID, METADATA_USER_META].contains(opcode)
            ? opcode : METADATA_INVALID
        emit([.setMetadataStatus(metadata: result.value, encrypted: result.encrypted, key: key, arguments: keys)])
        reply?(.success(result))
    }

    // MARK: tracking data (API reference, "Tracking Events")

    /// Device type (`computer`, `tablet`, `mobile`, `gameconsole`, `unknown`), AccessEnabler client type (`ios`: this
    /// SDK implements the iOS/tvOS AccessEnabler) and operating system, in the API reference's vocabulary.
    func deviceTrackingFields() -> [String] {
        let configuration = requestor.configurations.first?.configuration
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
    func tracking(authenticationSucceeded success: Bool, mvpd: String?, profile: Profile?, cached: Bool) -> AccessEnablerEvent {
        let data =
            [
                success ? "true" : "false", success ? (mvpd ?? "") : "", success ? hashedGUID(profile) : "",
                success && cached ? "true" : "false",
            ] + deviceTrackingFields()
        return .sendTrackingData(data: data, eventType: TRACKING_AUTHENTICATION)
    }

    /// `TRACKING_AUTHORIZATION`: success, MVPD id, GUID, token in cache (the resource's decision was still valid on
    /// the device when the request started), error, details, device type, client type, OS.
    func tracking(
        authorizationSucceeded success: Bool, mvpd: String?, profile: Profile?, cached: Bool, error: String,
        details: String
    ) -> AccessEnablerEvent {
        let data =
            [success ? "true" : "false", mvpd ?? "", hashedGUID(profile), cached ? "true" : "false", error, details]
            + deviceTrackingFields()
        return .sendTrackingData(data: data, eventType: TRACKING_AUTHORIZATION)
    }
}
