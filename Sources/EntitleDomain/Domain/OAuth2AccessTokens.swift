import EntitleCore
import EntitleModel
import EntitleStorage

/// Where ``DecisionService`` gets the access token for an OAuth 2.0 MVPD's authorization call on a profile's behalf:
/// ``OAuth2SignIn`` exchanges the profile's refresh token at the MVPD; a unit test gives the MVPD's answer.
package protocol OAuth2AccessTokens: Sendable {
    /// An access token for the MVPD's authorization call on the profile's behalf; nil when the profile has no grant (the
    /// MVPD's API key is used then); a failure ends the decision with its error.
    func accessToken(profile: ProfileRecord, mvpd: MVPDRecord) async -> Result<String?, EnhancedError>
}

extension OAuth2SignIn: OAuth2AccessTokens {}
