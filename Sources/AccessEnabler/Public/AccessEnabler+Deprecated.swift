import Foundation

extension AccessEnabler {
    /// `init` (v1.0–3.0). There is no software statement, so every network call fails with `R400`; use
    /// ``init(softwareStatement:serviceBaseURL:configuration:)``.
    @available(*, deprecated, message: "Use init(softwareStatement:)")
    public convenience init() {
        self.init(softwareStatement: "")
    }

    /// `setRequestor:signedRequestorID:` (v1.0–3.0): the signed requestor id is ignored; behaves as `setRequestor(_:)`.
    @available(*, deprecated, renamed: "setRequestor(_:)")
    public func setRequestor(_ requestorID: String!, signedRequestorID: String!) {
        setRequestor(requestorID)
    }

    /// `setRequestor:signedRequestorID:serviceProviders:` (v1.0–3.0): behaves as `setRequestor(_:serviceProviders:)`.
    @available(*, deprecated, renamed: "setRequestor(_:serviceProviders:)")
    public func setRequestor(_ requestorID: String!, signedRequestorID: String!, serviceProviders urls: [Any]!) {
        setRequestor(requestorID, serviceProviders: urls)
    }

    /// tvOS `setRequestor:signedRequestorID:secret:publicKey:` (v2.0–3.0): secret and key are ignored.
    @available(*, deprecated, renamed: "setRequestor(_:)")
    public func setRequestor(_ requestorID: String!, signedRequestorID: String!, secret: String!, publicKey: String!) {
        setRequestor(requestorID)
    }

    /// tvOS `setRequestor:signedRequestorID:serviceProviders:secret:publicKey:` (v2.0–3.0).
    @available(*, deprecated, renamed: "setRequestor(_:serviceProviders:)")
    public func setRequestor(
        _ requestorID: String!, signedRequestorID: String!, serviceProviders urls: [Any]!, secret: String!,
        publicKey: String!
    ) {
        setRequestor(requestorID, serviceProviders: urls)
    }

    /// `getAuthenticationToken` (v1.0–3.0): completes the login like `handleExternalURL(ADOBEPASS_REDIRECT_URL)`.
    @available(*, deprecated, renamed: "handleExternalURL(_:)")
    public func getAuthenticationToken() {
        handleExternalURL(ADOBEPASS_REDIRECT_URL)
    }

    /// `getAuthentication:(NSArray*)filter` (v2.0–2.3.1): a list of MVPD ids for the platform picker.
    @available(*, deprecated, message: "Use getAuthentication(_:) with a TV_PROVIDERS dictionary")
    public func getAuthentication(_ filter: [Any]!) {
        getAuthentication([TV_PROVIDERS: SendableValues.strings(filter)] as [AnyHashable: Any])
    }

    /// `getAuthentication:withData:andFilter:(NSArray*)` (v2.0–2.3.1).
    @available(*, deprecated, message: "Use getAuthentication(_:withData:andFilter:) with a TV_PROVIDERS dictionary")
    public func getAuthentication(_ forceAuthn: Bool, withData data: [AnyHashable: Any]!, andFilter filter: [Any]!) {
        getAuthentication(forceAuthn, withData: data, andFilter: [TV_PROVIDERS: SendableValues.strings(filter)] as [AnyHashable: Any])
    }
}
