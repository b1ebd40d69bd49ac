import EntitleCore

/// The callbacks of the AccessEnabler (`EntitlementDelegate.h`), in Swift.
///
/// Callbacks arrive on the enabler's ``CallbackExecutor`` (the main queue by default on Apple platforms, a private
/// serial queue elsewhere), one at a time and in the order the engine produced them. A main-actor view controller
/// conforms with `extension MyViewController: @preconcurrency EntitlementDelegate`.
/// The optional callbacks of the Objective-C protocol have default implementations that do nothing.
public protocol EntitlementDelegate: AnyObject, Sendable {
    /// The configuration phase finished: `ACCESS_ENABLER_STATUS_SUCCESS` (1) or `ACCESS_ENABLER_STATUS_ERROR` (0).
    func setRequestorComplete(_ status: Int32)
    /// The authentication status: `(1, USER_AUTHENTICATED)` or `(0, <error code>)`.
    func setAuthenticationStatus(_ status: Int32, errorCode code: String)
    /// Show an MVPD picker with these MVPDs, then call `setSelectedProvider(_:)`.
    func displayProviderDialog(_ mvpds: [MVPD])
    /// Open `url` (login or logout page) in a web view and watch for the redirect URL.
    func navigate(toUrl url: String)
    /// Open `url` in an SFSafariViewController (only with `handleSVC` true, for MVPDs that need it).
    func navigate(toUrl url: String, useSVC: Bool)
    /// Authorization succeeded: the short media token for `resource`.
    func setToken(_ token: String, forResource resource: String)
    /// Authorization failed for `resource`; `description` carries the MVPD's message when there is one.
    func tokenRequestFailed(_ resource: String, errorCode code: String, errorDescription description: String)
    /// The subset of the resources of `checkPreauthorizedResources` the user may view.
    func preauthorizedResources(_ resources: [String])
    /// The currently selected MVPD (`nil` when none), answer of `getSelectedProvider()`.
    func selectedProvider(_ mvpd: MVPD?)
    /// The answer of `getMetadata(_:)`: the value (nil when unavailable), whether it is encrypted, the opcode and
    /// the dictionary given to `getMetadata`.
    func setMetadataStatus(_ metadata: JSONValue?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: any Sendable])
    /// A tracking event (`TRACKING_AUTHENTICATION`, `TRACKING_AUTHORIZATION`, `TRACKING_GET_SELECTED_PROVIDER`)
    /// with the data array of the API reference's tables.
    func sendTrackingData(_ data: [String], forEventType event: Int32)
    /// Present the platform's TV-provider picker (Apple SSO): a `UIViewController` on Apple platforms, a
    /// ``PortableTVProviderDialog`` to answer elsewhere.
    func presentTvProviderDialog(_ viewController: TVProviderDialog)
    /// Dismiss the platform's TV-provider picker.
    func dismissTvProviderDialog(_ viewController: TVProviderDialog)
}

extension EntitlementDelegate {
    /// Default: falls back to `navigate(toUrl:)`.
    public func navigate(toUrl url: String, useSVC: Bool) { navigate(toUrl: url) }
    /// Default: ignores the list.
    public func preauthorizedResources(_ resources: [String]) {}
    /// Default: ignores the provider.
    public func selectedProvider(_ mvpd: MVPD?) {}
    /// Default: ignores the metadata.
    public func setMetadataStatus(_ metadata: JSONValue?, encrypted: Bool, forKey key: Int32, andArguments arguments: [String: any Sendable]) {}
    /// Default: ignores tracking data.
    public func sendTrackingData(_ data: [String], forEventType event: Int32) {}
    /// Default: does nothing.
    public func presentTvProviderDialog(_ viewController: TVProviderDialog) {}
    /// Default: does nothing.
    public func dismissTvProviderDialog(_ viewController: TVProviderDialog) {}
}

/// The advanced error reporting protocol (`EntitlementStatus.h`): one dictionary per status, with the keys
/// `errorId`, `level`, `message` and optional extras (see ``AccessEnablerStatus``).
public protocol EntitlementStatus: AnyObject, Sendable {
    /// A status report.
    func status(_ statusDictionary: [String: String])
}
