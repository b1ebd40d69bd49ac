import EntitleCore
import Foundation
@testable import MediaTokenVerifier
import Testing

@Suite struct ResourceMatcherTests {
    static func mrss(
        channel: String, itemTitle: String? = nil, guid: String? = nil, rating: String? = nil,
        scheme: String = "urn:v-chip", channelRating: String? = nil
    ) -> String {
        var item = ""
        if itemTitle != nil || guid != nil || rating != nil {
            item = "<item>"
            if let itemTitle { item += "<title>\(itemTitle)</title>" }
            if let guid { item += "<guid>\(guid)</guid>" }
            if let rating { item += "<media:rating scheme=\"\(scheme)\">\(rating)</media:rating>" }
            item += "</item>"
        }
        let channelRatingXML = channelRating.map { "<media:rating scheme=\"\(scheme)\">\($0)</media:rating>" } ?? ""
        return """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>\(channel)</title>\
            \(channelRatingXML)\(item)</channel></rss>
            """
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let token: String
        let request: String
        let matches: Bool
        let why: String
        var testDescription: String { why }
    }

    static let cases: [Case] = [
        Case(token: "news", request: "news", matches: true, why: "same plain id"),
        Case(token: "news", request: " news\n", matches: true, why: "whitespace around the request"),
        Case(token: "news", request: "News", matches: false, why: "channel titles are case-sensitive"),
        Case(token: "news", request: "sports", matches: false, why: "other plain id"),
        Case(token: "news", request: mrss(channel: "news"), matches: true, why: "plain id = MRSS channel without item"),
        Case(token: mrss(channel: "news"), request: "news", matches: true, why: "MRSS channel = plain id"),
        Case(
            token: mrss(channel: "news", channelRating: "TV-G"), request: "news", matches: true,
            why: "request without rating ignores the token's channel rating"),
        Case(
            token: "news", request: mrss(channel: "news", channelRating: "TV-G"), matches: false,
            why: "a rating in the request must be in the token"),
        Case(
            token: "news", request: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"), matches: false,
            why: "a channel-level token does not authorize an item"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"), request: "news", matches: false,
            why: "an item-level token does not authorize the channel"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1", rating: "TV-G"),
            request: mrss(channel: "news", itemTitle: "Evening", guid: "n-1", rating: "tv-g"), matches: true,
            why: "same item, same rating (value case-insensitive)"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1", rating: "TV-G"),
            request: mrss(channel: "news", guid: "n-1"), matches: true, why: "same guid, request states no title or rating"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"),
            request: mrss(channel: "news", itemTitle: "Evening", guid: "n-2"), matches: false, why: "other guid, same title"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"),
            request: mrss(channel: "news", itemTitle: "Evening"), matches: false, why: "token item has a guid; request has none"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening"), request: mrss(channel: "news", itemTitle: "Evening"),
            matches: true, why: "items without guid match by title"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening"), request: mrss(channel: "news", itemTitle: "Morning"),
            matches: false, why: "other title"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening"), request: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"),
            matches: false, why: "title-only token does not cover a request naming a guid"),
        Case(
            token: mrss(channel: "news", itemTitle: "Evening", guid: "n-1"),
            request: mrss(channel: "sports", itemTitle: "Evening", guid: "n-1"), matches: false, why: "same item in another channel"),
        Case(
            token: mrss(channel: "movies", guid: "m-1", rating: "TV-14"),
            request: mrss(channel: "movies", guid: "m-1", rating: "TV-MA"), matches: false, why: "rating differs"),
        Case(
            token: mrss(channel: "movies", guid: "m-1", rating: "pg", scheme: "urn:mpaa"),
            request: mrss(channel: "movies", guid: "m-1", rating: "pg", scheme: "urn:v-chip"), matches: false, why: "scheme differs"),
        Case(token: "<rss><channel><title>news</title>", request: "news", matches: false, why: "malformed MRSS token"),
        Case(token: "news", request: "<rss><channel><title>news</title></channel>", matches: false, why: "malformed MRSS request"),
        Case(
            token: "<rss><channel><title>news</title></channel></rss>", request: "<rss><channel><title>news</title></channel></rss>",
            matches: true, why: "identical strings match without parsing"),
        Case(
            token: "news", request: "<!DOCTYPE x><rss><channel><title>news</title></channel></rss>", matches: false,
            why: "DTDs are refused"),
        Case(
            token: mrss(channel: "news", guid: "a"),
            request: """
                <rss><channel><title>news</title><item><guid>a</guid></item><item><guid>b</guid></item></channel></rss>
                """, matches: false, why: "several items are refused"),
    ]

    @Test(arguments: cases) func matching(_ c: Case) {
        #expect(ResourceMatcher.matches(token: c.token, request: c.request) == c.matches, "\(c.why)")
    }

    @Test func verifierAppliesTheRules() async {
        let verifier = MediaTokenVerifier(keys: Fixtures.keySet(Fixtures.currentKey))
        let item = Self.mrss(channel: "movies", itemTitle: "Heat", guid: "m-42", rating: "TV-MA")
        let token = Fixtures.serialized(Fixtures.token(resource: item))
        let now = Fixtures.issue.addingTimeInterval(1)
        #expect(await verifier.verify(token, requestor: "REF", resource: item, now: now).status == .valid)
        #expect(await verifier.verify(token, requestor: "REF", resource: Self.mrss(channel: "movies", guid: "m-42"), now: now).status == .valid)
        #expect(await verifier.verify(token, requestor: "REF", resource: "movies", now: now).status == .invalidResource)
        #expect(
            await verifier.verify(token, requestor: "REF", resource: Self.mrss(channel: "movies", guid: "m-43"), now: now).status == .invalidResource)
    }
}
