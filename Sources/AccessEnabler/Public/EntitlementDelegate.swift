import Foundation

/// The callbacks of the AccessEnabler (`EntitlementDelegate.h`), with exactly the Swift signatures Swift gives
/// Adobe's Objective-C header, so a delegate written for Adobe's AccessEnabler conforms unchanged.
///
/// Callbacks arrive on the enabler's ``CallbackExecutor`` (the main queue by default on Apple platforms, a private
/// serial queue elsewhere), one at a time and in the order the engine produced them. A main-actor view controller
/// conforms with `extension MyViewController: @preconcurrency EntitlementDelegate` in Swift 6 mode (as it must for
/// Adobe's protocol); in Swift 5 mode the plain conformance compiles as it did with Adobe's SDK.
///
/// The first nine requirements are required, as in Adobe's header: a missing one, or one with a different
/// signature (`String` instead of `String!`, `[MVPD]` instead of `[Any]!`), is a compile error.
/// The last four are `@optional` in Adobe's header and have default implementations here. A default never stays
/// silent: when the SDK calls an optional callback the delegate does not implement with this exact signature,
/// the default reports status `CB404` (``AccessEnablerStatus/ID/callbackNotImplemented``, extra `callback`) to the
/// status delegate and the event observers; `navigate(toUrl:useSVC:)` then falls back to `navigate(toUrl:)`.
public protocol EntitlementDelegate: AnyObject {
    /// The configuration phase finished: `ACCESS_ENABLER_STATUS_SUCCESS` (1) or `ACCESS_ENABLER_STATUS_ERROR` (0).
    func setRequestorComplete(_ status: Int32)
    /// The authentication status: `(1, "")` or `(0, <error code>)`.
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!)
    /// Authorization succeeded: the short media token for `resource`.
    func setToken(_ token: String!, forResource resource: String!)
    /// Authorization failed for `resource`; `description` carries the MVPD's message when there is one.
    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!)
    /// The currently selected MVPD (`nil` when none), answer of `getSelectedProvider()`.
    func selectedProvider(_ mvpd: MVPD!)
    /// Show an MVPD picker with these MVPDs (each an ``MVPD``), then call `setSelectedProvider(_:)`.
    func displayProviderDialog(_ mvpds: [Any]!)
    /// A tracking event (`TRACKING_AUTHENTICATION`, `TRACKING_AUTHORIZATION`, `TRACKING_GET_SELECTED_PROVIDER`)
    /// with the data array (strings) of the API reference's tables.
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32)
    /// The answer of `getMetadata(_:)`: the value (`String`, `NSNumber`-like numbers, arrays; nil when
    /// unavailable), whether it is encrypted, the opcode and the dictionary given to `getMetadata`.
    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!)
    /// The subset (strings) of the resources of `checkPreauthorizedResources` the user may view.
    func preauthorizedResources(_ resources: [Any]!)

    /// Optional. Open `url` (login or logout page) in a web view and watch for the redirect URL.
    func navigate(toUrl url: String!)
    /// Optional. Open `url` in an SFSafariViewController (only with `handleSVC` true, for MVPDs that need it).
    func navigate(toUrl url: String!, useSVC: Bool)
    /// Optional. Present the platform's TV-provider picker (Apple SSO): a `UIViewController` on Apple platforms, a
    /// ``PortableTVProviderDialog`` to answer elsewhere.
    func presentTvProviderDialog(_ viewController: TVProviderDialog!)
    /// Optional. Dismiss the platform's TV-provider picker.
    func dismissTvProviderDialog(_ viewController: TVProviderDialog!)
}

extension EntitlementDelegate {
    /// Default (the delegate does not implement it): reports `CB404`; the login or logout page is not shown.
    public func navigate(toUrl url: String!) { MissingCallbacks.record("navigate(toUrl:)") }
    /// Default: reports `CB404` and falls back to `navigate(toUrl:)`.
    public func navigate(toUrl url: String!, useSVC: Bool) {
        MissingCallbacks.record("navigate(toUrl:useSVC:)")
        navigate(toUrl: url)
    }
    /// Default: reports `CB404`; the platform picker is not shown.
    public func presentTvProviderDialog(_ viewController: TVProviderDialog!) { MissingCallbacks.record("presentTvProviderDialog(_:)") }
    /// Default: reports `CB404`.
    public func dismissTvProviderDialog(_ viewController: TVProviderDialog!) { MissingCallbacks.record("dismissTvProviderDialog(_:)") }
}

/// The advanced error reporting protocol (`EntitlementStatus.h`): one dictionary per status, with the keys
/// `errorId`, `level`, `message` and optional extras (see ``AccessEnablerStatus``); keys and values are strings.
public protocol EntitlementStatus: AnyObject {
    /// A status report.
    func status(_ statusDictionary: [AnyHashable: Any]!)
}

/// Which optional callbacks fell through to their default implementation during one delivery: the defaults record
/// themselves in the task-local list the event hub binds around each delegate call.
final class MissingCallbacks: Sendable {
    @TaskLocal static var current: MissingCallbacks?

    private let names = Locked<[String]>([])

    /// Called by a default implementation.
    static func record(_ name: String) { current?.names.withLock { $0.append(name) } }

    /// The callbacks recorded so far.
    var recorded: [String] { names.value }
}
