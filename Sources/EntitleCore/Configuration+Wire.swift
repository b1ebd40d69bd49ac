/// Answer of `GET /api/v2/{serviceProvider}/configuration`.
public struct ConfigurationResponse: Codable, Sendable, Equatable {
    /// Normalised device type of the caller.
    public var device: String
    /// Normalised client type.
    public var clientType: String
    /// Normalised operating system.
    public var os: String
    /// The requestor and its MVPDs.
    public var requestor: RequestorConfiguration

    /// Creates a configuration answer.
    public init(device: String, clientType: String, os: String, requestor: RequestorConfiguration) {
        self.device = device
        self.clientType = clientType
        self.os = os
        self.requestor = requestor
    }
}

/// The requestor part of the configuration.
public struct RequestorConfiguration: Codable, Sendable, Equatable {
    /// Requestor (service provider) id.
    public var id: String
    /// Display name.
    public var name: String
    /// Allowed web domains.
    public var domains: [Domain]
    /// The MVPDs integrated with this requestor.
    public var mvpds: [MVPDConfiguration]

    /// A web domain of the requestor.
    public struct Domain: Codable, Sendable, Equatable {
        /// Domain name.
        public var name: String
        /// Whether MVPD-initiated login is allowed.
        public var mvpdInitiated: Bool
        /// Creates a domain entry.
        public init(name: String, mvpdInitiated: Bool = false) {
            self.name = name
            self.mvpdInitiated = mvpdInitiated
        }
    }

    /// Creates a requestor configuration.
    public init(id: String, name: String, domains: [Domain], mvpds: [MVPDConfiguration]) {
        self.id = id
        self.name = name
        self.domains = domains
        self.mvpds = mvpds
    }
}

/// One MVPD in the configuration.
public struct MVPDConfiguration: Codable, Sendable, Equatable {
    /// MVPD id.
    public var id: String
    /// Name to show in a picker.
    public var displayName: String
    /// Logo URL.
    public var logoUrl: String
    /// Whether authentication is per aggregator.
    public var authPerAggregator: Bool
    /// Whether this is a TempPass pseudo-MVPD.
    public var isTempPass: Bool
    /// Whether this MVPD is a proxy.
    public var isProxy: Bool
    /// Whether platform single sign-on (Apple) is enabled.
    public var enablePlatformServices: Bool
    /// Platform boarding status (`PICKER`, `SUPPORTED`), when boarded.
    public var boardingStatus: String?
    /// Identifier of the MVPD on the platform, when boarded.
    public var platformMappingId: String?
    /// Whether the MVPD appears in the platform's picker.
    public var displayInPlatformPicker: Bool
    /// Whether the login page must be opened in SFSafariViewController.
    public var requiresSafariViewController: Bool
    /// Whether the MVPD has a logout endpoint (Single Logout).
    public var hasLogout: Bool
    /// User-metadata keys that are delivered encrypted.
    public var encryptedUserMetadata: [String]

    /// Creates an MVPD entry.
    public init(
        id: String, displayName: String, logoUrl: String, authPerAggregator: Bool = false, isTempPass: Bool = false,
        isProxy: Bool = false, enablePlatformServices: Bool = false, boardingStatus: String? = nil,
        platformMappingId: String? = nil, displayInPlatformPicker: Bool = false,
        requiresSafariViewController: Bool = false, hasLogout: Bool = false, encryptedUserMetadata: [String] = []
    ) {
        self.id = id
        self.displayName = displayName
        self.logoUrl = logoUrl
        self.authPerAggregator = authPerAggregator
        self.isTempPass = isTempPass
        self.isProxy = isProxy
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.platformMappingId = platformMappingId
        self.displayInPlatformPicker = displayInPlatformPicker
        self.requiresSafariViewController = requiresSafariViewController
        self.hasLogout = hasLogout
        self.encryptedUserMetadata = encryptedUserMetadata
    }
}
