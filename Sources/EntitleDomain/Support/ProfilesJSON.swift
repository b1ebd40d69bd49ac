import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// `{"profiles":{…}}` written from each profile's JSON, byte for byte what `JSONCoding.encode(ProfilesResponse)` writes
/// (keys in the order of its `.sortedKeys` on Linux, UTF-8 bytes; tested against it).
package enum ProfilesJSON {
    package static func encode(_ profiles: [String: WireProfile]) -> Data {
        var out = Data("{\"profiles\":{".utf8)
        out.reserveCapacity(profiles.values.reduce(32) { $0 + $1.json.count + 40 })
        for (index, mvpd) in profiles.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: FastJSON.string(mvpd).utf8)
            out.append(UInt8(ascii: ":"))
            out.append(profiles[mvpd]!.json)
        }
        out.append(contentsOf: "}}".utf8)
        return out
    }
}
