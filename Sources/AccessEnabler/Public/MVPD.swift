import EntitleCore

/// An MVPD (pay-TV provider) the user can pick, as delivered by `displayProviderDialog(_:)` and `selectedProvider(_:)`.
public struct MVPD: Sendable, Hashable, Codable {
    /// The MVPD id.
    public let ID: String
    /// The name to show in a picker.
    public let displayName: String
    /// The address of the MVPD's logo.
    public let logoURL: String
    /// Whether the MVPD supports platform single sign-on (Apple SSO).
    public let enablePlatformServices: Bool
    /// `nil` (no Apple SSO), `PICKER` or `SUPPORTED`.
    public let boardingStatus: String?
    /// Whether this is a TempPass pseudo-MVPD (authenticates without a login page).
    public let isTempPass: Bool
    /// Whether the MVPD's login page must be shown in SFSafariViewController.
    public let requiresSafariViewController: Bool

    /// The MVPD id (Swift spelling of ``ID``).
    public var id: String { ID }

    /// Creates an MVPD.
    public init(
        ID: String, displayName: String, logoURL: String, enablePlatformServices: Bool = false,
        boardingStatus: String? = nil, isTempPass: Bool = false, requiresSafariViewController: Bool = false
    ) {
        self.ID = ID
        self.displayName = displayName
        self.logoURL = logoURL
        self.enablePlatformServices = enablePlatformServices
        self.boardingStatus = boardingStatus
        self.isTempPass = isTempPass
        self.requiresSafariViewController = requiresSafariViewController
    }

    /// Creates an MVPD from its configuration entry.
    public init(configuration: MVPDConfiguration) {
        self.init(
            ID: configuration.id, displayName: configuration.displayName, logoURL: configuration.logoUrl,
            enablePlatformServices: configuration.enablePlatformServices,
            boardingStatus: configuration.boardingStatus, isTempPass: configuration.isTempPass,
            requiresSafariViewController: configuration.requiresSafariViewController)
    }
}
