import EntitleCore
import Foundation

/// The methods of `AccessEnabler.h`, with exactly the Swift signatures Swift gives Adobe's Objective-C header
/// (`String!`, `[Any]!`, `[AnyHashable: Any]!`), so call sites written for Adobe's SDK compile unchanged.
/// Dictionary and array arguments are copied at the call into Sendable values: strings, numbers, booleans and
/// arrays or dictionaries of them are kept; other values are kept as their description.
extension AccessEnabler {
    /// `setOptions:` — `applicationProfile`, `visitorID`, `handleSVC` (Bool), `device_info` (Base64 string); the
    /// values travel with every later request.
    public func setOptions(_ options: [AnyHashable: Any]!) {
        send(.setOptions(SendableValues.dictionary(options) ?? [:]))
    }

    /// `setRequestor:` — configuration from the service named at creation (``Configuration/serviceBaseURL`` or the
    /// app's `EntitleServiceURL` Info.plist key) → `setRequestorComplete`.
    public func setRequestor(_ requestorID: String!) {
        send(.setRequestor(requestorID ?? "", providers: [], reply: nil))
    }

    /// `setRequestor:serviceProviders:` — configuration from every service at once; the MVPD lists are merged, the
    /// fastest service winning per MVPD, and later calls for an MVPD go to the service that listed it. Call it again
    /// when the app returns to the foreground to resynchronise with the service.
    public func setRequestor(_ requestorID: String!, serviceProviders urls: [Any]!) {
        let strings = (urls ?? []).map { ($0 as? String) ?? String(describing: $0) }
        send(.setRequestor(requestorID ?? "", providers: Self.providerURLs(strings), reply: nil))
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
        send(.getAuthentication(force: false, data: nil, filter: nil, reply: nil))
    }

    /// `getAuthentication:withData:` — `forceAuthn` starts the flow even when authenticated; `data` travels with the
    /// session (Promotional TempPass identity).
    public func getAuthentication(_ forceAuthn: Bool, withData data: [AnyHashable: Any]!) {
        send(.getAuthentication(force: forceAuthn, data: SendableValues.dictionary(data), filter: nil, reply: nil))
    }

    /// `getAuthentication:(NSDictionary*)filter` — `filter` (`TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`: arrays of MVPD
    /// ids) narrows and orders the platform SSO picker (non-SSO MVPDs are ignored); with no SSO MVPD it is ignored
    /// and the classic flow runs.
    public func getAuthentication(_ filter: [AnyHashable: Any]!) {
        send(.getAuthentication(force: false, data: nil, filter: SendableValues.dictionary(filter), reply: nil))
    }

    /// `getAuthentication:withData:andFilter:`.
    public func getAuthentication(_ forceAuthn: Bool, withData data: [AnyHashable: Any]!, andFilter filter: [AnyHashable: Any]!) {
        send(
            .getAuthentication(
                force: forceAuthn, data: SendableValues.dictionary(data), filter: SendableValues.dictionary(filter),
                reply: nil))
    }

    /// `setSelectedProvider:` — the user's MVPD choice: creates the session and sends `navigate(toUrl:)` (or
    /// `navigate(toUrl:useSVC:)`, or the `REGCODE` status on a second-screen device); a TempPass MVPD authenticates
    /// at once. `nil` cancels: `setAuthenticationStatus(0, PROVIDER_NOT_SELECTED_ERROR)`.
    public func setSelectedProvider(_ mvpdId: String!) {
        send(.selectProvider(mvpdId, reply: nil))
    }

    /// `handleExternalURL:` — the web view reached `adobepass://ios.app` (or the app's custom scheme): completes the
    /// login (or logout) once. Other URLs are ignored.
    public func handleExternalURL(_ url: String!) {
        send(.handleExternalURL(url ?? ""))
    }

    /// `checkPreauthorizedResources:` → `preauthorizedResources` with the authorized subset (cache allowed).
    public func checkPreauthorizedResources(_ resources: [Any]!) {
        checkPreauthorizedResources(resources, cache: true)
    }

    /// `checkPreauthorizedResources:cache:` — `cache` false always asks the service.
    public func checkPreauthorizedResources(_ resources: [Any]!, cache: Bool) {
        send(.checkPreauthorized(SendableValues.strings(resources), cache: cache, reply: nil))
    }

    /// `checkAuthorization:` — never starts authentication: `setToken` or `tokenRequestFailed`.
    public func checkAuthorization(_ resource: String!) {
        send(.authorize(resource ?? "", mode: .check, data: nil, reply: nil))
    }

    /// `checkAuthorization:withData:`.
    public func checkAuthorization(_ resource: String!, withData data: [AnyHashable: Any]!) {
        send(.authorize(resource ?? "", mode: .check, data: SendableValues.dictionary(data), reply: nil))
    }

    /// `getAuthorization:` — authenticates first when needed (`displayProviderDialog`…), then authorizes.
    public func getAuthorization(_ resource: String!) {
        send(.authorize(resource ?? "", mode: .get, data: nil, reply: nil))
    }

    /// `getAuthorization:withData:`.
    public func getAuthorization(_ resource: String!, withData data: [AnyHashable: Any]!) {
        send(.authorize(resource ?? "", mode: .get, data: SendableValues.dictionary(data), reply: nil))
    }

    /// `logout` — wipes local state, then (iOS-style devices) `navigate(toUrl:)` to the logout page; ends with
    /// `setAuthenticationStatus(0, USER_NOT_AUTHENTICATED_ERROR)`.
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
    public func getMetadata(_ keyDictionary: [AnyHashable: Any]!) {
        send(.getMetadata(SendableValues.dictionary(keyDictionary) ?? [:], reply: nil))
    }
}

/// Copies of the app's Objective-C-style arguments (`[AnyHashable: Any]`, `[Any]`) as Sendable values, and back.
enum SendableValues {
    /// A dictionary with string keys and Sendable values (nil stays nil).
    static func dictionary(_ value: [AnyHashable: Any]?) -> [String: any Sendable]? {
        guard let value else { return nil }
        var result: [String: any Sendable] = [:]
        for (key, element) in value {
            let name = (key.base as? String) ?? String(describing: key.base)
            result[name] = convert(element)
        }
        return result
    }

    /// The elements as strings.
    static func strings(_ value: [Any]?) -> [String] {
        (value ?? []).map { ($0 as? String) ?? String(describing: $0) }
    }

    /// One value: strings, numbers and booleans as they are (by their exact type: on Apple platforms `1 as? Bool`
    /// succeeds through NSNumber); `NSNumber`s as `Bool`, `Int` or `Double`; arrays and dictionaries element by element.
    static func convert(_ value: Any) -> any Sendable {
        let type = type(of: value)
        if let value = value as? String { return value }
        if type == Bool.self, let value = value as? Bool { return value }
        if type == Int.self, let value = value as? Int { return value }
        if type == Int32.self, let value = value as? Int32 { return value }
        if type == Int64.self, let value = value as? Int64 { return value }
        if type == UInt32.self, let value = value as? UInt32 { return value }
        if type == Double.self, let value = value as? Double { return value }
        if let number = value as? NSNumber { return numberValue(number) }
        if let value = value as? [Any] { return value.map(convert) }
        if let value = value as? [AnyHashable: Any] { return dictionary(value) ?? [:] }
        return String(describing: value)
    }

    private static func numberValue(_ number: NSNumber) -> any Sendable {
        if String(cString: number.objCType) == "c" { return number.boolValue }
        if Double(number.intValue) == number.doubleValue { return number.intValue }
        return number.doubleValue
    }

    /// A Sendable dictionary as the Objective-C-style dictionary a delegate receives.
    static func objectDictionary(_ value: [String: any Sendable]) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, element) in value { result[key] = element }
        return result
    }

    /// A JSON value as the Foundation value a delegate receives (`String`, `Double`, `Bool`, `[Any]`, `[String: Any]`).
    static func object(_ value: JSONValue) -> Any {
        switch value {
        case .string(let string): return string
        case .number(let number): return number
        case .bool(let bool): return bool
        case .array(let array): return array.map(object)
        case .object(let fields): return fields.mapValues(object)
        }
    }
}
