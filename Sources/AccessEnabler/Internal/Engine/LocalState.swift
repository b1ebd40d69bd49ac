import EntitleCore
import Foundation

/// What the SDK remembers per requestor between launches: profiles (AuthN) with the provider that issued them,
/// the selected MVPD, and the expiry of authorization decisions (for `getMetadata`). Media tokens are never kept.
struct LocalState: Codable, Sendable, Equatable {
    struct Entry: Codable, Sendable, Equatable {
        /// Base URL of the service provider that holds the profile.
        var provider: String
        var profile: Profile
    }

    var profiles: [String: Entry] = [:]
    var selectedMVPD: String?
    /// Resource → decision `notAfter`, epoch ms.
    var authorizations: [String: Int64] = [:]
    /// MVPD → provider base URL of logouts the service has not confirmed (the call failed): retried by the next
    /// `setRequestor`, and until then the service's copy of those profiles is not adopted again.
    var pendingLogouts: [String: String]?

    static func storageKey(requestor: String) -> String { "state." + requestor }

    /// The profile that authenticates the user at `now`: the selected MVPD's if valid, else any valid one.
    func authenticated(now: Date) -> (mvpd: String, entry: Entry)? {
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        func valid(_ entry: Entry) -> Bool { entry.profile.notAfter > nowMs && entry.profile.notBefore <= nowMs + 300_000 }
        if let selected = selectedMVPD, let entry = profiles[selected], valid(entry) { return (selected, entry) }
        for key in profiles.keys.sorted() where valid(profiles[key]!) { return (key, profiles[key]!) }
        return nil
    }

    /// An expired TempPass profile, if that is what is left.
    func expiredTemporaryProfile(now: Date) -> String? {
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        return profiles.first { $0.value.profile.type == .temporary && $0.value.profile.notAfter <= nowMs }?.key
    }
}
