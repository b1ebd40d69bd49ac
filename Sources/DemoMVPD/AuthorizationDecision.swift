import Foundation
import EntitleCore

/// The demo MVPD's answer to "may this subscriber watch this resource?" (the body of `POST /{mvpd}/authorize`).
struct AuthorizationDecision: Sendable, Equatable, Codable {
    /// Whether the subscriber may watch.
    var authorized: Bool
    /// Why not: one of the `reason…` constants; nil when authorized.
    var reason: String?
    /// The MVPD's own text for the user; nil when authorized.
    var message: String?

    /// The rating is above what parental controls allow.
    static let reasonParentalControls = "parental_controls"
    /// The channel is not in the subscriber's package (or unknown).
    static let reasonNotEntitled = "not_entitled"
    /// The user id is not a subscriber of this MVPD.
    static let reasonUnknownUser = "unknown_user"

    /// A permit.
    static let permit = AuthorizationDecision(authorized: true, reason: nil, message: nil)

    /// Decides: first the rating (the resource's own rating, else the channel's default) against the subscriber's
    /// maximum rating, then the channel against the subscriber's package.
    static func decide(userID: String, resource: ProtectedResource, provider: DemoProvider) -> AuthorizationDecision {
        guard let subscriber = DemoSubscriber.find(userID: userID, providerID: provider.id) else {
            return AuthorizationDecision(
                authorized: false, reason: reasonUnknownUser,
                message: "\(provider.displayName) has no subscriber with this user ID.")
        }
        let channel = DemoChannel.find(resource.channel)
        if let (label, level) = rating(of: resource, channel: channel), level > subscriber.maxRatingLevel {
            return AuthorizationDecision(
                authorized: false, reason: reasonParentalControls,
                message: "Parental controls on this \(provider.displayName) account do not allow \(label) programs.")
        }
        guard let channel, subscriber.channels.contains(channel.id) else {
            let name = channel?.id ?? resource.channel.trimmingCharacters(in: .whitespacesAndNewlines)
            return AuthorizationDecision(
                authorized: false, reason: reasonNotEntitled,
                message: "Your \(provider.displayName) package does not include \(name).")
        }
        return .permit
    }

    /// The rating label and level that apply: the resource's rating (unknown values count as the most restrictive
    /// level), else the channel's default rating, else nil.
    private static func rating(of resource: ProtectedResource, channel: DemoChannel?) -> (String, Int)? {
        if let rating = resource.rating {
            let label = rating.value.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            return (label, rating.level ?? 5)
        }
        if let channel, let level = DemoChannel.vChipLevel(of: channel.defaultRating) {
            return (channel.defaultRating, level)
        }
        return nil
    }
}
