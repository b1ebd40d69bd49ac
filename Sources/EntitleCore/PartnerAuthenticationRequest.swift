/// What a partner single sign-on session asks the platform to get from the MVPD.
public struct PartnerAuthenticationRequest: Codable, Sendable, Equatable {
    /// `saml`.
    public var type: String
    /// Base64 of the SAML AuthnRequest (for `VSAccountMetadataRequest.verificationToken`).
    public var request: String
    /// Attribute names to ask for (`VSAccountMetadataRequest.attributeNames`).
    public var attributesNames: [String]

    /// Creates a request.
    public init(type: String = "saml", request: String, attributesNames: [String]) {
        self.type = type
        self.request = request
        self.attributesNames = attributesNames
    }
}
