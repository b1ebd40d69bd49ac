import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// User metadata an MVPD delivers with its authorization answer (notes §5: max rating "AuthN initially, plus AuthZ
/// refresh"; Comcast sends its rating limits only at authorization): kept with the profile, so the next profile answer
/// and `getMetadata` show it.
extension DecisionService {
    /// Merges the rating limits of a permit into the profile's `maxRating` object (`{"MPAA": …, "VCHIP": …}`); nothing is
    /// written when they are already there. A failure to store them never changes the decision.
    package func keepAuthorizationMetadata(_ verdict: MVPDAuthorizationClient.Verdict, profile: ProfileRecord) async {
        guard case .authorizedFor(_, let ratings) = verdict, !ratings.isEmpty else { return }
        var map = profile.attributeMap
        var jsonValued = Set(map[UserMetadataEncoder.jsonValuedKey] ?? [])
        var current: [String: JSONValue] = [:]
        if jsonValued.contains("maxRating"), let text = map["maxRating"]?.first,
            case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        {
            current = object
        }
        var merged = current
        for (scheme, value) in ratings { merged[scheme] = .string(value) }
        guard merged != current else { return }
        map["maxRating"] = [JSONText.encode(JSONValue.object(merged))]
        jsonValued.insert("maxRating")
        map[UserMetadataEncoder.jsonValuedKey] = jsonValued.sorted()
        try? await profileStore.updateProfileAttributes(profile, attributes: JSONText.encode(map))
    }
}
