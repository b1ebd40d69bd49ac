import EntitleCore
import Foundation

extension AccessEnabler {
    /// Everything an ``AccessEnabler`` can be given at `init`: the seams (transport, store, clock, executor) and
    /// the device settings. The defaults suit an app; tests inject fakes.
    public struct Configuration: Sendable {
        /// The network.
        public var transport: any HTTPTransport
        /// Where credentials, the device id and the authentication state are kept.
        public var tokenStore: any TokenStore
        /// The time source.
        public var clock: any AccessEnablerClock
        /// Where callbacks run.
        public var callbackExecutor: any CallbackExecutor
        /// What to do with stored data at start-up.
        public var storageCheck: IntegrityCheckType
        /// Second-screen (tvOS-style) mode: authentication shows a registration code instead of a web view, and
        /// logout opens no page.
        public var secondScreen: Bool
        /// The app's own redirect URL (custom scheme, e.g. `entitle-demo://callback`): used for MVPDs that need
        /// SFSafariViewController and accepted by `handleExternalURL`. Registration asks for every redirect URI of
        /// the software statement (no `redirect_uri`), so both this URL and `adobepass://ios.app` stay usable.
        public var redirectURL: String?
        /// Seconds between second-screen polls (clamped to 3–5).
        public var pollInterval: TimeInterval
        /// The activation URL shown with a registration code; default: the service's `/activate` page.
        public var activationURL: String?
        /// Client information sent as `X-Device-Info` (unless `setOptions(["device_info": …])` replaces it).
        public var deviceInfo: DeviceInfo
        /// A stable device id; default: a random id generated once and kept in the token store.
        public var deviceID: String?
        /// With several service providers, how long `setRequestor` waits for the others once one has answered
        /// (seconds): a provider still silent then is reported with status `CFG408` (`serviceProvider` names it) and the
        /// others' MVPDs are used.
        public var configurationTimeout: TimeInterval = 10
        /// Whether `getMetadata` answers `METADATA_DEVICE_ID` (a feature the programmer enables, as Adobe enables it
        /// per programmer); default false: the answer is nil and the device id is not exposed.
        public var deviceIDMetadata = false
        /// The `User-Agent` of every request.
        public var userAgent: String
        /// The platform's TV-provider account for single sign-on: VideoSubscriberAccount on Apple platforms,
        /// none elsewhere unless given (``PortablePlatformAccount``). Without it `getAuthentication` shows the regular picker.
        public var platformSSO: (any PlatformSingleSignOn)?
        /// The browser the SDK opens itself for MVPDs that require SFSafariViewController when `handleSVC` is false:
        /// `SFSafariViewController` on iOS; none elsewhere (then `navigate(toUrl:)` is sent, as for other MVPDs).
        public var safariPresenter: (any SafariViewPresenter)?
        /// The service's SAML entity id given to the platform (`channelIdentifier`); default: `<service>/sp/saml/metadata`.
        public var platformChannelIdentifier: String?

        /// Creates a configuration; every parameter has a default.
        public init(
            transport: any HTTPTransport = URLSessionTransport(), tokenStore: (any TokenStore)? = nil,
            clock: any AccessEnablerClock = SystemClock(),
            callbackExecutor: any CallbackExecutor = DispatchQueueExecutor.platformDefault(),
            storageCheck: IntegrityCheckType = .INTEGRITY_CHECK_ALL, secondScreen: Bool = DeviceEnvironment.isTV,
            redirectURL: String? = nil, pollInterval: TimeInterval = 3, activationURL: String? = nil,
            deviceInfo: DeviceInfo = DeviceEnvironment.current(), deviceID: String? = nil,
            userAgent: String = DeviceEnvironment.userAgent,
            platformSSO: (any PlatformSingleSignOn)? = DeviceEnvironment.defaultPlatformSSO(),
            platformChannelIdentifier: String? = nil,
            safariPresenter: (any SafariViewPresenter)? = DeviceEnvironment.defaultSafariPresenter()
        ) {
            self.transport = transport
            self.tokenStore = tokenStore ?? DeviceEnvironment.defaultTokenStore()
            self.clock = clock
            self.callbackExecutor = callbackExecutor
            self.storageCheck = storageCheck
            self.secondScreen = secondScreen
            self.redirectURL = redirectURL
            self.pollInterval = pollInterval
            self.activationURL = activationURL
            self.deviceInfo = deviceInfo
            self.deviceID = deviceID
            self.userAgent = userAgent
            self.platformSSO = platformSSO
            self.platformChannelIdentifier = platformChannelIdentifier
            self.safariPresenter = safariPresenter
        }
    }

    /// The Info.plist key naming the app's Entitle service (`https://tve.example.com`), read when the enabler is
    /// created without a `serviceBaseURL`.
    public static let serviceURLInfoKey = "EntitleServiceURL"

    /// The service used when `setRequestor` is given no service providers: the app's `EntitleServiceURL` Info.plist
    /// value, or nil — then `setRequestor(_:)` fails with `setRequestorComplete(0)` and status `CFG100` (there is no
    /// built-in default: an app names its service).
    public static var defaultServiceBaseURL: URL? {
        guard let text = Bundle.main.object(forInfoDictionaryKey: serviceURLInfoKey) as? String else { return nil }
        return normalizedServiceURL(text)
    }
}

/// Defaults that depend on the platform.
public enum DeviceEnvironment {
    /// True on tvOS, where authentication uses a second screen.
    public static var isTV: Bool {
        #if os(tvOS)
        return true
        #else
        return false
        #endif
    }

    /// The SDK's `User-Agent`.
    public static let userAgent = "Entitle-AccessEnabler/1.0"

    /// Client information for this device.
    public static func current(applicationID: String? = Bundle.main.bundleIdentifier) -> DeviceInfo {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        let osVersion = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        #if os(iOS)
        let (type, os) = ("MobilePhone", "iOS")
        #elseif os(tvOS)
        let (type, os) = ("SetTopBox", "tvOS")
        #elseif os(macOS)
        let (type, os) = ("Desktop", "Mac OS")
        #else
        let (type, os) = ("Desktop", "Linux")
        #endif
        return DeviceInfo(
            primaryHardwareType: type, model: type, version: osVersion, manufacturer: "Unknown", vendor: "Unknown",
            osName: os, osVersion: osVersion, connectionType: "LAN", applicationId: applicationID ?? "entitle")
    }

    /// VideoSubscriberAccount on Apple platforms that have it; none elsewhere.
    public static func defaultPlatformSSO() -> (any PlatformSingleSignOn)? {
        #if canImport(VideoSubscriberAccount) && canImport(UIKit)
        return VideoSubscriberAccountSSO()
        #else
        return nil
        #endif
    }

    /// SFSafariViewController on iOS; none elsewhere.
    public static func defaultSafariPresenter() -> (any SafariViewPresenter)? {
        #if canImport(SafariServices) && canImport(UIKit) && !os(tvOS)
        return SafariViewControllerPresenter()
        #else
        return nil
        #endif
    }

    /// The Keychain on Apple platforms; a file store under the user's configuration directory elsewhere (in memory
    /// when that directory cannot be created).
    public static func defaultTokenStore() -> any TokenStore {
        #if canImport(Security)
        return KeychainTokenStore()
        #else
        return (try? FileTokenStore.userDefault(name: "entitle/access-enabler")) ?? InMemoryTokenStore()
        #endif
    }
}
