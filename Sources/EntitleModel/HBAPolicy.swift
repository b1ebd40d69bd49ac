import Foundation

/// What an integration does with home-based (HBA) sign-ins — sign-ins the MVPD made without the subscriber's credentials
/// because the device is on the subscriber's home network, and says so with the user metadata `hba_status` true.
package struct HBAPolicy: Codable, Sendable, Equatable {
    /// How long a home-based sign-in lasts, seconds; nil: as long as any other sign-in of the integration.
    package var profileTTLSeconds: Int64?
    /// Resources (channel ids, as plain resource ids or MRSS titles) a home-based sign-in is never authorized for.
    package var deniedResources: [String]

    /// True when the policy changes nothing (no own lifetime, no denied resources).
    package var isEmpty: Bool { profileTTLSeconds == nil && deniedResources.isEmpty }

    /// Creates the value from each of its stored properties.
    package init(profileTTLSeconds: Int64? = nil, deniedResources: [String] = []) {
        self.profileTTLSeconds = profileTTLSeconds
        self.deniedResources = deniedResources
    }
}

extension ProfileRecord {
    /// The user-metadata name under which MVPDs say a sign-in was home-based (Adobe's `hba_status`).
    package static let homeBasedAttribute = "hba_status"

    /// Whether the MVPD said this sign-in was home-based (`hba_status` true, 1 or yes).
    package var isHomeBased: Bool { Self.isHomeBased(attributeMap[Self.homeBasedAttribute]) }

    /// Whether the values of an `hba_status` attribute or claim say home-based.
    package static func isHomeBased(_ values: [String]?) -> Bool {
        guard let value = values?.first?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return value == "true" || value == "1" || value == "yes"
    }
}
