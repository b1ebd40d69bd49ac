import EntitleCore
import EntitleModel
import Foundation

/// What the in-memory profiles cost: fills a ``ProfileCache`` with one signed-in profile per device, shaped like the
/// ones a SAML sign-in stores (UUID device ids, DCR client ids, SAML NameID and SessionIndex, user metadata as JSON
/// text), each string its own allocation as when decoded from database rows, and reports the resident memory it took.
package enum ProfileCacheMemoryProbe {
    /// The measured footprint.
    package struct Result: Sendable {
        /// Devices held.
        package let devices: Int
        /// Resident memory before filling, bytes.
        package let residentBefore: Int
        /// Resident memory after filling, bytes.
        package let residentAfter: Int
        /// Bytes per device (one profile each).
        package var bytesPerDevice: Double { Double(residentAfter - residentBefore) / Double(max(devices, 1)) }

        /// Creates the value from each of its stored properties.
        package init(devices: Int, residentBefore: Int, residentAfter: Int) {
            self.devices = devices
            self.residentBefore = residentBefore
            self.residentAfter = residentAfter
        }
    }

    /// Fills a cache sized for `devices` and measures. The cache is released when this returns.
    package static func run(devices: Int) -> Result {
        let before = residentBytes()
        let cache = ProfileCache(feed: .polled, maxAge: .seconds(3_600), capacity: devices)
        let clients = (0..<50).map { _ in UUID().uuidString.lowercased() }
        for index in 0..<devices {
            let key = ProfileCache.DeviceKey(requestor: "REF", client: clients[index % clients.count], device: UUID().uuidString)
            cache.store(key, [profile(key: key, index: index)], generation: cache.lookup(key).generation)
        }
        let after = residentBytes()
        precondition(cache.count == devices)
        return Result(devices: devices, residentBefore: before, residentAfter: after)
    }

    package static func profile(key: ProfileCache.DeviceKey, index: Int) -> ProfileRecord {
        let userID = UUID().uuidString.lowercased()
        let attributes = #"{"householdID":["\#(UUID().uuidString.lowercased())"],"maxRating":["TV-14"],"userID":["\#(userID)"],"zip":["10001"]}"#
        return ProfileRecord(
            requestorId: key.requestor, clientId: key.client, deviceId: key.device, mvpdId: "DemoCable", type: .regular,
            issuer: "DemoCable", notBefore: 1_800_000_000_000 + Int64(index), notAfter: 1_800_086_400_000 + Int64(index),
            attributes: attributes, nameId: "_" + UUID().uuidString.lowercased(), sessionIndex: "_" + UUID().uuidString.lowercased(),
            sessionCode: String(UUID().uuidString.prefix(8)), userId: userID)
    }

    /// The process's resident set (VmRSS on Linux; 0 where unknown).
    package static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
