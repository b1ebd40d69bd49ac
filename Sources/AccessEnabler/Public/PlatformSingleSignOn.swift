import Foundation

/// The platform's TV-provider account, as the SDK uses it for single sign-on (Apple's VideoSubscriberAccount on
/// Apple platforms, ``PortablePlatformAccount`` elsewhere and in tests).
///
/// The SDK asks for permission, lets the platform pick the provider (showing its picker through `presenter`
/// when the account is not signed in), then relays the service's SAML AuthnRequest through the account and hands
/// the provider's signed answer back to the service.
public protocol PlatformSingleSignOn: Sendable {
    /// Whether the user lets this app use the TV-provider account; `prompt` asks the user when undetermined.
    func accessStatus(prompt: Bool) async -> PlatformAccessStatus
    /// The provider the account is signed in to, showing the platform picker through `presenter` when needed.
    func selectProvider(_ request: PlatformProviderRequest, presenter: TVProviderDialogPresenter) async throws(PlatformSSOError)
        -> PlatformProviderInfo
    /// Relays `query` (the service's Base64 SAML AuthnRequest) to the signed-in provider; returns the provider's
    /// signed SAML Response, Base64 (`samlAttributeQueryResponse`).
    func attributeQuery(_ query: PlatformAttributeQuery) async throws(PlatformSSOError) -> String
}

/// The user's permission for the app to use the TV-provider account (an open set of values).
public struct PlatformAccessStatus: RawRepresentable, Sendable, Hashable {
    /// `granted`, `denied`, `restricted` or `notDetermined`, as on the wire (`AP-Partner-Framework-Status`).
    public var rawValue: String
    /// Creates a status.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The user allowed it.
    public static let granted = Self(rawValue: "granted")
    /// The user refused.
    public static let denied = Self(rawValue: "denied")
    /// A policy forbids it.
    public static let restricted = Self(rawValue: "restricted")
    /// The user has not been asked.
    public static let notDetermined = Self(rawValue: "notDetermined")
}

/// What the SDK asks of the platform picker.
public struct PlatformProviderRequest: Sendable, Equatable {
    /// The service's SAML entity id (VideoSubscriberAccount `channelIdentifier`).
    public var channelIdentifier: String
    /// The platform ids of the requestor's SSO MVPDs, in the order the app asked for (`TV_PROVIDERS`).
    public var supportedProviderIDs: [String]
    /// The platform ids to feature at the top of the picker (`FEATURED_TV_PROVIDERS`).
    public var featuredProviderIDs: [String]

    /// Creates a request.
    public init(channelIdentifier: String, supportedProviderIDs: [String], featuredProviderIDs: [String]) {
        self.channelIdentifier = channelIdentifier
        self.supportedProviderIDs = supportedProviderIDs
        self.featuredProviderIDs = featuredProviderIDs
    }
}

/// The provider the platform account is signed in to.
public struct PlatformProviderInfo: Sendable, Equatable {
    /// The platform's provider id (an MVPD's `platformMappingId`).
    public var providerID: String
    /// When the platform's sign-in expires.
    public var expirationDate: Date?

    /// Creates provider information.
    public init(providerID: String, expirationDate: Date?) {
        self.providerID = providerID
        self.expirationDate = expirationDate
    }
}

/// The service's request that the platform relays to the provider.
public struct PlatformAttributeQuery: Sendable, Equatable {
    /// The provider to ask (from ``PlatformProviderInfo``).
    public var providerID: String
    /// The service's SAML entity id.
    public var channelIdentifier: String
    /// Base64 SAML AuthnRequest (`authenticationRequest.request` of the partner session).
    public var verificationToken: String
    /// The attributes to ask for (`authenticationRequest.attributesNames`).
    public var attributeNames: [String]

    /// Creates a query.
    public init(providerID: String, channelIdentifier: String, verificationToken: String, attributeNames: [String]) {
        self.providerID = providerID
        self.channelIdentifier = channelIdentifier
        self.verificationToken = verificationToken
        self.attributeNames = attributeNames
    }
}

/// Why platform single sign-on did not give a provider answer. Each code maps to a documented status.
public struct PlatformSSOError: Error, Sendable, Equatable {
    /// What went wrong (an open set of values).
    public struct Code: RawRepresentable, Sendable, Hashable {
        /// The code's name.
        public var rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The user chose "other TV provider" in the picker → status `N003`, then `displayProviderDialog`.
        public static let otherProvider = Self(rawValue: "otherProvider")
        /// The user chose a provider this requestor does not support → `N004`, then `displayProviderDialog`.
        public static let unsupportedProvider = Self(rawValue: "unsupportedProvider")
        /// The user cancelled the picker → `N005`.
        public static let cancelled = Self(rawValue: "cancelled")
        /// The user did not allow access to the account → `VSA404`, then the regular flow.
        public static let accessDenied = Self(rawValue: "accessDenied")
        /// The provider did not answer through the platform → `VSA503`, then the regular flow.
        public static let providerUnavailable = Self(rawValue: "providerUnavailable")
        /// Any other platform error → `AAPL` with `details`, then the regular flow.
        public static let other = Self(rawValue: "other")
    }

    /// The code.
    public var code: Code
    /// The platform's description of the error.
    public var details: String

    /// Creates an error.
    public init(_ code: Code, details: String = "") {
        self.code = code
        self.details = details
    }
}
