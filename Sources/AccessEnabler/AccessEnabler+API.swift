import EntitleCore
import Foundation

extension AccessEnabler {
    /// `setOptions:` — `applicationProfile`, `visitorID`, `handleSVC` (Bool), `device_info` (Base64 string); the
    /// values travel with every later request.
    public func setOptions(_ options: [String: any Sendable]) {
        send(.setOptions(options))
    }

    /// `setRequestor:` — configuration from the default service → `setRequestorComplete`.
    public func setRequestor(_ requestorID: String) {
        setRequestor(requestorID, serviceProviders: [])
    }

    /// `setRequestor:serviceProviders:` — configuration from every service at once; the MVPD lists are merged, the
    /// fastest service winning per MVPD, and later calls for an MVPD go to the service that listed it. Call it again
    /// when the app returns to the foreground to resynchronise with the service.
    public func setRequestor(_ requestorID: String, serviceProviders urls: [String]) {
        send(.setRequestor(requestorID, providers: Self.providerURLs(urls), reply: nil))
    }

    static func providerURLs(_ urls: [String]) -> [URL] {
        let parsed = urls.compactMap(normalizedServiceURL)
        if parsed.isEmpty && !urls.isEmpty { return [URL(string: "http://invalid.invalid")!] }
        return parsed
    }

    /// `checkAuthentication` — local check only → `setAuthenticationStatus`.
    public func checkAuthentication() {
        send(.checkAuthentication(reply: nil))
    }

    /// `getAuthentication` → `setAuthenticationStatus(1, "")` when authenticated, else `displayProviderDialog`.
    public func getAuthentication() {
        getAuthentication(forceAuthn: false, withData: nil)
    }

    /// `getAuthentication:withData:` — `forceAuthn` starts the flow even when authenticated; `data` travels with the
    /// session (Promotional TempPass identity).
    public func getAuthentication(forceAuthn: Bool, withData data: [String: any Sendable]?) {
        send(.getAuthentication(force: forceAuthn, data: data, filter: nil, reply: nil))
    }

    /// `getAuthentication:filter` — `filter` (`TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`: arrays of MVPD ids) narrows
    /// and orders the platform SSO picker (non-SSO MVPDs are ignored); with no SSO MVPD it is ignored and the
    /// classic flow runs.
    public func getAuthentication(filter: [String: any Sendable]) {
        getAuthentication(forceAuthn: false, withData: nil, andFilter: filter)
    }

    /// `getAuthentication:withData:andFilter:`.
    public func getAuthentication(forceAuthn: Bool, withData data: [String: any Sendable]?, andFilter filter: [String: any Sendable]) {
        send(.getAuthentication(force: forceAuthn, data: data, filter: filter, reply: nil))
    }

    /// `setSelectedProvider:` — the user's MVPD choice: creates the session and sends `navigate(toUrl:)` (or
    /// `navigate(toUrl:useSVC:)`, or the `REGCODE` status on a second-screen device); a TempPass MVPD authenticates
    /// at once. `nil` cancels: `setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)`.
    public func setSelectedProvider(_ mvpdID: String?) {
        send(.selectProvider(mvpdID, reply: nil))
    }

    /// `handleExternalURL:` — the web view reached `adobepass://ios.app` (or the app's custom scheme): completes the
    /// login (or logout) once. Other URLs are ignored.
    public func handleExternalURL(_ url: String) {
        send(.handleExternalURL(url))
    }

    /// `checkPreauthorizedResources:` → `preauthorizedResources` with the authorized subset (cache allowed).
    public func checkPreauthorizedResources(_ resources: [String]) {
        checkPreauthorizedResources(resources, cache: true)
    }

    /// `checkPreauthorizedResources:cache:` — `cache` false always asks the service.
    public func checkPreauthorizedResources(_ resources: [String], cache: Bool) {
        send(.checkPreauthorized(resources, cache: cache, reply: nil))
    }

    /// `checkAuthorization:` — never starts authentication: `setToken` or `tokenRequestFailed`.
    public func checkAuthorization(_ resource: String) {
        checkAuthorization(resource, withData: nil)
    }

    /// `checkAuthorization:withData:`.
    public func checkAuthorization(_ resource: String, withData data: [String: any Sendable]?) {
        send(.authorize(resource, mode: .check, data: data, reply: nil))
    }

    /// `getAuthorization:` — authenticates first when needed (`displayProviderDialog`…), then authorizes.
    public func getAuthorization(_ resource: String) {
        getAuthorization(resource, withData: nil)
    }

    /// `getAuthorization:withData:`.
    public func getAuthorization(_ resource: String, withData data: [String: any Sendable]?) {
        send(.authorize(resource, mode: .get, data: data, reply: nil))
    }

    /// `logout` — wipes local state, then `navigate(toUrl:)` to the logout page (not on second-screen devices);
    /// ends with `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
    public func logout() {
        send(.logout(reply: nil))
    }

    /// `getSelectedProvider` → `selectedProvider`.
    public func getSelectedProvider() {
        send(.getSelectedProvider(reply: nil))
    }

    /// `getMetadata:` → `setMetadataStatus(_:encrypted:forKey:andArguments:)`. Keys: `METADATA_OPCODE_KEY` with
    /// `METADATA_AUTHENTICATION`, `METADATA_AUTHORIZATION` (+ `METADATA_RESOURCE_ID_KEY`), `METADATA_DEVICE_ID` or
    /// `METADATA_USER_META` (+ `METADATA_USER_META_KEY`: `zip`, `householdID`, `maxRating`, `userID`, `channelID`).
    public func getMetadata(_ keyDictionary: [String: any Sendable]) {
        send(.getMetadata(keyDictionary, reply: nil))
    }
}
