import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// The channel lineup an MVPD's SAML assertion carries for preflight by lineup (notes §3, way 2): one attribute value per
/// preauthorized resource. A resource is in the lineup when its channel (the plain id, or the MRSS channel title) or
/// the resource string exactly as sent is listed; listed values are compared exactly (case included), blanks around
/// them ignored.
package struct ChannelLineup: Sendable, Equatable {
    /// The listed resource ids, trimmed, without empty ones.
    package let resources: Set<String>

    /// A lineup from the attribute's values.
    package init(resources values: [String]) {
        resources = Set(values.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty })
    }

    /// The lineup kept with a profile (``ProfileRecord/lineup``); nil when none is kept.
    package init?(stored text: String?) {
        guard let text else { return nil }
        let values: [String] = JSONText.decode(text)
        self.init(resources: values)
    }

    /// The JSON array text kept with the profile, sorted.
    package var stored: String { JSONText.encode(resources.sorted()) }

    /// Whether `resource` is preauthorized by the lineup.
    package func contains(_ resource: ProtectedResource) -> Bool {
        resources.contains(resource.channel) || resources.contains(resource.raw)
    }
}
