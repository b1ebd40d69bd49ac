import EntitleCore
import Foundation

/// A subscriber account of one of the demo MVPDs (design: the demo world).
package struct DemoSubscriber: Sendable, Equatable, Hashable {
    /// The login name typed on the login page (`alice`).
    package let username: String
    /// The demo password (these are public demo accounts).
    let password: String
    /// The id of the MVPD the account belongs to; it only logs in there.
    package let providerID: String
    /// The stable opaque user id sent as NameID and `userID` (never the login name).
    package let userID: String
    /// The household id (`householdID` attribute).
    package let householdID: String
    /// The channels of the subscriber's package.
    package let channels: [String]
    /// The most permissive rating parental controls allow, on the v-chip scale (`TV-14`).
    package let maxRating: String
    /// The billing zip code (`zip` attribute; the service encrypts it for programmers).
    package let zip: String

    /// The v-chip level of ``maxRating`` (TV-Y = 0 … TV-MA = 5).
    package var maxRatingLevel: Int { DemoChannel.vChipLevel(of: maxRating) ?? 0 }

    /// The SAML attributes asserted for the subscriber.
    package var samlAttributes: [String: [String]] {
        [
            "userID": [userID],
            "householdID": [householdID],
            "zip": [zip],
            "maxRating": [maxRating],
            "channelID": channels,
            "upstreamUserID": [userID],
        ]
    }

    /// The demo subscribers of every demo MVPD.
    package static let all: [DemoSubscriber] = [
        DemoSubscriber(
            username: "alice", password: "alice-pass", providerID: "DemoCable", userID: "dc-alice-7f3a",
            householdID: "H-1001", channels: ["news", "sports", "movies"], maxRating: "TV-MA", zip: "10001"),
        DemoSubscriber(
            username: "bob", password: "bob-pass", providerID: "DemoCable", userID: "dc-bob-2c9e",
            householdID: "H-1001", channels: ["news", "sports"], maxRating: "TV-PG", zip: "10001"),
        DemoSubscriber(
            username: "carol", password: "carol-pass", providerID: "DemoFiber", userID: "df-carol-51d8",
            householdID: "H-2001", channels: ["news"], maxRating: "TV-14", zip: "94105"),
        DemoSubscriber(
            username: "dave", password: "dave-pass", providerID: "DemoSSO", userID: "ds-dave-b604",
            householdID: "H-3001", channels: ["news", "movies"], maxRating: "TV-14", zip: "60601"),
        DemoSubscriber(
            username: "erin", password: "erin-pass", providerID: "DemoStream", userID: "dst-erin-93c1",
            householdID: "H-4001", channels: ["news", "sports", "movies"], maxRating: "TV-MA", zip: "02134"),
        DemoSubscriber(
            username: "frank", password: "frank-pass", providerID: "DemoStream", userID: "dst-frank-0e72",
            householdID: "H-4002", channels: ["sports"], maxRating: "TV-PG", zip: "02135"),
        // The subscribers of Demo Proxy's proxied MVPDs (they sign in through the proxy).
        DemoSubscriber(
            username: "grace", password: "grace-pass", providerID: "DemoValley", userID: "dv-grace-4b17",
            householdID: "H-5001", channels: ["news", "sports"], maxRating: "TV-14", zip: "97201"),
        DemoSubscriber(
            username: "heidi", password: "heidi-pass", providerID: "DemoHills", userID: "dh-heidi-c250",
            householdID: "H-6001", channels: ["news", "movies"], maxRating: "TV-MA", zip: "80202"),
    ]

    /// The subscriber of `providerID` whose credentials match, or nil (unknown user, wrong password or wrong MVPD
    /// all look the same).
    static func authenticate(username: String, password: String, providerID: String) -> DemoSubscriber? {
        let name = username.trimmingCharacters(in: .whitespaces).lowercased()
        var match: DemoSubscriber?
        for subscriber in all where subscriber.providerID == providerID {
            let nameMatches = constantTimeEquals(subscriber.username, name)
            let passwordMatches = constantTimeEquals(subscriber.password, password)
            if nameMatches && passwordMatches { match = subscriber }
        }
        return match
    }

    /// The subscriber of `providerID` with the opaque `userID`, or nil.
    static func find(userID: String, providerID: String) -> DemoSubscriber? {
        all.first { $0.userID == userID && $0.providerID == providerID }
    }
}

/// A channel of the demo world and its default rating.
struct DemoChannel: Sendable, Equatable {
    /// The channel id (`news`), also the plain resource id.
    let id: String
    /// The rating of programs on the channel when the resource carries no item rating.
    let defaultRating: String

    /// news TV-G, sports TV-PG, movies TV-MA.
    static let all: [DemoChannel] = [
        DemoChannel(id: "news", defaultRating: "TV-G"),
        DemoChannel(id: "sports", defaultRating: "TV-PG"),
        DemoChannel(id: "movies", defaultRating: "TV-MA"),
    ]

    /// The channel whose id matches `title` (case-insensitive), or nil.
    static func find(_ title: String) -> DemoChannel? {
        let wanted = title.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return all.first { $0.id == wanted }
    }

    /// The level of a v-chip rating (TV-Y = 0 … TV-MA = 5), or nil.
    static func vChipLevel(of rating: String) -> Int? {
        ContentRating.level(of: rating, scheme: "urn:v-chip")
    }
}

/// Compares two strings without stopping at the first difference.
func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
    let a = Array(lhs.utf8), b = Array(rhs.utf8)
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    for index in 0..<max(a.count, b.count) {
        let x = index < a.count ? a[index] : 0
        let y = index < b.count ? b[index] : 0
        difference |= x ^ y
    }
    return difference == 0 && a.count == b.count
}
