import EntitleCore
import Foundation

/// Decides whether a token's authorized resource covers the resource a video server is about to serve.
///
/// Both strings are read with EntitleCore's ``ProtectedResource`` (the parser the service authorizes with).
/// Rules (see docs/media-token-verifier.md):
/// 1. Identical strings (after trimming whitespace) always match.
/// 2. A plain id `X` is the channel titled `X` with no item.
/// 3. Channels must be equal (exact, case-sensitive).
/// 4. A channel-level token matches only channel-level requests; an item-level token matches only requests for
///    the same item: same guid when the token's item has a guid, else same title and no guid in the request.
/// 5. A rating stated in the request must be stated identically in the token (scheme, value case-insensitive).
/// 6. A resource that cannot be parsed (malformed MRSS, DTD, several items) matches only by rule 1.
enum ResourceMatcher {
    static func matches(token tokenResource: String, request requestResource: String) -> Bool {
        if tokenResource == requestResource { return true }
        let token = tokenResource.trimmingCharacters(in: .whitespacesAndNewlines)
        let request = requestResource.trimmingCharacters(in: .whitespacesAndNewlines)
        if token == request { return true }
        guard let authorized = try? ProtectedResource(parsing: token),
            let wanted = try? ProtectedResource(parsing: request)
        else { return false }
        return covers(authorized, wanted)
    }

    /// Whether a token for `authorized` authorizes serving `wanted`.
    static func covers(_ authorized: ProtectedResource, _ wanted: ProtectedResource) -> Bool {
        guard authorized.channel == wanted.channel else { return false }
        let authorizedGUID = nonEmpty(authorized.itemGUID), authorizedTitle = nonEmpty(authorized.itemTitle)
        let wantedGUID = nonEmpty(wanted.itemGUID), wantedTitle = nonEmpty(wanted.itemTitle)
        let authorizedIsItem = authorizedGUID != nil || authorizedTitle != nil
        let wantedIsItem = wantedGUID != nil || wantedTitle != nil
        guard authorizedIsItem == wantedIsItem else { return false }
        if authorizedIsItem {
            if let guid = authorizedGUID {
                guard wantedGUID == guid else { return false }
            } else {
                guard wantedGUID == nil, wantedTitle == authorizedTitle else { return false }
            }
        }
        guard let wantedRating = wanted.rating else { return true }
        guard let authorizedRating = authorized.rating else { return false }
        return authorizedRating.scheme == wantedRating.scheme
            && authorizedRating.value.lowercased() == wantedRating.value.lowercased()
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
