import Foundation

/// Client information sent as `X-Device-Info` (Base64 of a JSON object) or the `device_info` parameter.
public struct DeviceInfo: Codable, Sendable, Equatable {
    /// Hardware type (`MobilePhone`, `Tablet`, `TV`, `SetTopBox`, `Desktop`, …); the iOS sample sends it as `type`.
    public var primaryHardwareType: String?
    /// Device model.
    public var model: String?
    /// Device version.
    public var version: String?
    /// Manufacturer.
    public var manufacturer: String?
    /// Vendor.
    public var vendor: String?
    /// Operating system name (`iOS`, `tvOS`, `Linux`, …).
    public var osName: String?
    /// Operating system family.
    public var osFamily: String?
    /// Operating system version.
    public var osVersion: String?
    /// Browser name.
    public var browserName: String?
    /// Browser version.
    public var browserVersion: String?
    /// User agent.
    public var userAgent: String?
    /// Display width in pixels.
    public var displayWidth: Int?
    /// Display height in pixels.
    public var displayHeight: Int?
    /// Connection type (`WiFi`, `LAN`, `cellular`, …).
    public var connectionType: String?
    /// Application id.
    public var applicationId: String?

    /// Creates device information.
    public init(
        primaryHardwareType: String? = nil, model: String? = nil, version: String? = nil, manufacturer: String? = nil,
        vendor: String? = nil, osName: String? = nil, osFamily: String? = nil, osVersion: String? = nil,
        browserName: String? = nil, browserVersion: String? = nil, userAgent: String? = nil,
        displayWidth: Int? = nil, displayHeight: Int? = nil, connectionType: String? = nil, applicationId: String? = nil
    ) {
        self.primaryHardwareType = primaryHardwareType
        self.model = model
        self.version = version
        self.manufacturer = manufacturer
        self.vendor = vendor
        self.osName = osName
        self.osFamily = osFamily
        self.osVersion = osVersion
        self.browserName = browserName
        self.browserVersion = browserVersion
        self.userAgent = userAgent
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.connectionType = connectionType
        self.applicationId = applicationId
    }

    enum CodingKeys: String, CodingKey {
        case primaryHardwareType, type, model, version, manufacturer, vendor, osName, osFamily, osVersion
        case browserName, browserVersion, userAgent, displayWidth, displayHeight, connectionType, applicationId
    }

    /// Decodes leniently: `type` is accepted for `primaryHardwareType`, numbers may arrive as strings.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) throws -> String? {
            if let value = try? c.decodeIfPresent(String.self, forKey: key) { return value }
            if let value = try? c.decodeIfPresent(Double.self, forKey: key) { return String(value) }
            if c.contains(key), try c.decodeNil(forKey: key) { return nil }
            if c.contains(key) { throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected a string") }
            return nil
        }
        func int(_ key: CodingKeys) throws -> Int? {
            if let value = try? c.decodeIfPresent(Int.self, forKey: key) { return value }
            if let text = try string(key) {
                guard let value = Int(text) ?? Double(text).map({ Int($0) }) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected a number")
                }
                return value
            }
            return nil
        }
        primaryHardwareType = try string(.primaryHardwareType) ?? string(.type)
        model = try string(.model)
        version = try string(.version)
        manufacturer = try string(.manufacturer)
        vendor = try string(.vendor)
        osName = try string(.osName)
        osFamily = try string(.osFamily)
        osVersion = try string(.osVersion)
        browserName = try string(.browserName)
        browserVersion = try string(.browserVersion)
        userAgent = try string(.userAgent)
        displayWidth = try int(.displayWidth)
        displayHeight = try int(.displayHeight)
        connectionType = try string(.connectionType)
        applicationId = try string(.applicationId)
    }

    /// Encodes with the documented key names.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(primaryHardwareType, forKey: .primaryHardwareType)
        try c.encodeIfPresent(model, forKey: .model)
        try c.encodeIfPresent(version, forKey: .version)
        try c.encodeIfPresent(manufacturer, forKey: .manufacturer)
        try c.encodeIfPresent(vendor, forKey: .vendor)
        try c.encodeIfPresent(osName, forKey: .osName)
        try c.encodeIfPresent(osFamily, forKey: .osFamily)
        try c.encodeIfPresent(osVersion, forKey: .osVersion)
        try c.encodeIfPresent(browserName, forKey: .browserName)
        try c.encodeIfPresent(browserVersion, forKey: .browserVersion)
        try c.encodeIfPresent(userAgent, forKey: .userAgent)
        try c.encodeIfPresent(displayWidth, forKey: .displayWidth)
        try c.encodeIfPresent(displayHeight, forKey: .displayHeight)
        try c.encodeIfPresent(connectionType, forKey: .connectionType)
        try c.encodeIfPresent(applicationId, forKey: .applicationId)
    }

    /// The largest header value accepted, in characters.
    public static let maximumEncodedLength = 8192

    /// Decodes a header value (Base64 JSON; URL-safe Base64 and missing padding tolerated); throws ``EnhancedError/invalidDeviceInfo``.
    public static func decode(header: String) throws(EnhancedError) -> DeviceInfo {
        guard header.count <= maximumEncodedLength, let data = Data(base64Lenient: header),
            let info = try? JSONDecoder().decode(DeviceInfo.self, from: data)
        else {
            throw EnhancedError.invalidDeviceInfo
        }
        return info
    }

    /// The header value: Base64 of the JSON encoding.
    public func headerValue() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ((try? encoder.encode(self)) ?? Data("{}".utf8)).base64EncodedString()
    }
}
