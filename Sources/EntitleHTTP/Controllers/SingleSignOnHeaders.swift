import EntitleDomain
import HTTPTypes

extension HTTPField.Name {
    /// `Adobe-Subject-Token`: Fire TV's platform identity (JWS).
    package static let adobeSubjectToken = Self("Adobe-Subject-Token")!
    /// `X-Roku-Reserved-Roku-Connect-Token`: Roku's platform identity (JWS).
    package static let rokuConnectToken = Self("X-Roku-Reserved-Roku-Connect-Token")!
    /// `AD-Service-Token`: a service token of the network's identity service (JWS).
    package static let adServiceToken = Self("AD-Service-Token")!
}

extension SingleSignOnTokens {
    /// The SSO tokens of a request's headers.
    package init(_ headers: HTTPFields) {
        self.init(
            subjectToken: headers[.adobeSubjectToken], rokuToken: headers[.rokuConnectToken], serviceToken: headers[.adServiceToken])
    }
}
