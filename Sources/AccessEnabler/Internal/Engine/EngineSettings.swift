import EntitleCore
import Foundation

/// Settings fixed at `init`.
struct EngineSettings: Sendable {
    var softwareStatement: String
    var defaultProvider: URL
    /// The placeholder `defaultProvider` when the app named no service: configuring against it fails with `CFG100`
    /// without any connection.
    static let unconfiguredProvider = URL(string: "entitle-unconfigured:service")!
    var deviceMode: Bool
    var redirectURL: String?
    var pollInterval: TimeInterval
    var activationURL: String?
    var deviceInfo: DeviceInfo
    var deviceID: String?
    var deviceIDMetadata = false
    var configurationTimeout: TimeInterval = 10
    var userAgent: String
    var platformSSO: (any PlatformSingleSignOn)?
    var platformChannelIdentifier: String?
    var safariPresenter: (any SafariViewPresenter)?
}

/// Options of `setOptions` that travel with every request.
struct EngineOptions: Sendable, Equatable {
    var applicationProfile: String?
    var visitorID: String?
    var handleSVC = false
    var deviceInfoOverride: String?
}
