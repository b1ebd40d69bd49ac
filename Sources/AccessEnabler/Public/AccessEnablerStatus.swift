/// One advanced status report (protocol notes §7.2), delivered to ``EntitlementStatus/status(_:)`` as a dictionary.
public struct AccessEnablerStatus: Sendable, Hashable {
    /// The status id: `CFG400`, `R401`, `N000`, `REGCODE`, `Z100`, ….
    public var errorID: String
    /// `error`, `warning`, `info` or `success` (a ``Level``'s raw value), as the `level` key of the dictionary.
    public var level: String
    /// A human-readable message.
    public var message: String
    /// Further key/value pairs (`resource`, `details`, `code`, `activationURL`, …).
    public var extras: [String: String]

    /// The documented levels of a status (protocol notes §7.2); the raw value is the string the dictionary carries.
    public enum Level: String, Sendable, Hashable, CaseIterable {
        /// A flow failed (`CFG400`, `N130`, `Z100`, …).
        case error
        /// Something the app may want to act on, the flow went on (`N010`, `N111`, `CFG408`, …).
        case warning
        /// For information (`N011`, `Z011`, `VSA203`, …).
        case info
        /// A step succeeded and the app has something to show (`REGCODE`).
        case success
    }

    /// Creates a status.
    public init(errorID: String, level: String, message: String, extras: [String: String] = [:]) {
        self.errorID = errorID
        self.level = level
        self.message = message
        self.extras = extras
    }

    /// Creates a status with one of the documented levels.
    public init(errorID: String, level: Level, message: String, extras: [String: String] = [:]) {
        self.init(errorID: errorID, level: level.rawValue, message: message, extras: extras)
    }

    /// The level as a ``Level``; nil when ``level`` is not one of the documented strings.
    public var knownLevel: Level? { Level(rawValue: level) }

    /// The dictionary handed to `status(_:)`: `errorId`, `level`, `message` plus the extras.
    public var dictionary: [String: String] {
        var result = extras
        result[STATUS_ERROR_ID_KEY] = errorID
        result[STATUS_LEVEL_KEY] = level
        result[STATUS_MESSAGE_KEY] = message
        return result
    }

    /// Status ids used by this SDK (an open set; the protocol notes §7.2 list them all).
    public enum ID {
        /// No service named: the app set no `EntitleServiceURL` Info.plist key, no `serviceBaseURL` and no
        /// service providers.
        public static let serviceNotNamed = "CFG100"
        /// A service provider of `setRequestor(_:serviceProviders:)` did not answer in time (`serviceProvider`).
        public static let serviceTimeout = "CFG408"
        /// Invalid requestor id.
        public static let invalidRequestor = "CFG400"
        /// Service not found / unreachable.
        public static let serviceNotFound = "CFG404"
        /// Configuration throttled.
        public static let configurationThrottled = "CFG429"
        /// Service internal error (`CFG5xx`, with the HTTP status).
        public static func serviceError(_ httpStatus: Int) -> String { "CFG\(httpStatus)" }
        /// Application not registered (software statement rejected).
        public static let notRegistered = "R400"
        /// Access token could not be obtained.
        public static let accessTokenFailed = "R401"
        /// User not authenticated.
        public static let notAuthenticated = "N000"
        /// Authenticated with TempPass.
        public static let tempPassAuthenticated = "N011"
        /// TempPass expired.
        public static let tempPassExpired = "N111"
        /// Authentication session or code not found or expired.
        public static let authenticationNotFound = "N130"
        /// Internal authentication error.
        public static let authenticationInternal = "N500"
        /// Registration code could not be fetched.
        public static let registrationCodeFailed = "REG500"
        /// A registration code to show to the user (second screen).
        public static let registrationCode = "REGCODE"
        /// Authorized with TempPass.
        public static let tempPassAuthorized = "Z011"
        /// Authorization denied by the MVPD.
        public static let authorizationDenied = "Z100"
        /// MVPD communication failure.
        public static let mvpdCommunication = "Z120"
        /// Invalid or malformed resource.
        public static let invalidResource = "Z130"
        /// Internal authorization error.
        public static let authorizationInternal = "Z500"
        /// Preauthorization failed.
        public static let preauthorizationFailed = "P100"
        /// User logged out while signed in through platform SSO.
        public static let platformLogout = "VSA203"
        /// The user did not allow the app to use the platform's TV-provider account.
        public static let platformPermission = "VSA404"
        /// The platform's TV-provider request failed; the regular flow follows.
        public static let platformUnavailable = "VSA503"
        /// Another platform SSO error (`details` carries the platform's error).
        public static let platformError = "AAPL"
        /// The user chose "other TV provider" in the platform picker; `displayProviderDialog` follows.
        public static let otherProvider = "N003"
        /// The user chose a platform provider this requestor does not support; `displayProviderDialog` follows.
        public static let unsupportedProvider = "N004"
        /// The provider picker was cancelled.
        public static let pickerCancelled = "N005"
        /// Authenticated under an AuthN-All degradation rule.
        public static let degradedAuthentication = "N010"
        /// Authorized under a degradation rule.
        public static let degradedAuthorization = "Z010"
        /// Authorization denied by an AuthZ-None degradation rule.
        public static let degradationDenied = "Z169"
        /// Internal error.
        public static let internalError = "500"
        /// Logged out on this device, but the service could not be told (no answer or an error): the SDK retries at the
        /// next `setRequestor` and does not restore the profile meanwhile; the `mvpd` extra names the MVPD.
        public static let logoutPending = "LGO503"
        /// The delegate does not implement an optional callback the SDK called (or implements it with another
        /// signature than Adobe's); the `callback` extra names it.
        public static let callbackNotImplemented = "CB404"
        /// `setOptions` was given a key that is not one of the four options (Entitle's own id): it is not sent.
        public static let unknownOption = "OPT404"
    }

    /// `CB404` for `callback`: `error` for callbacks a flow needs, `warning` for `navigate(toUrl:useSVC:)` (which
    /// falls back to `navigate(toUrl:)`) and `dismissTvProviderDialog(_:)`.
    static func callbackNotImplemented(_ callback: String) -> AccessEnablerStatus {
        let fallback = callback == "navigate(toUrl:useSVC:)" || callback == "dismissTvProviderDialog(_:)"
        return AccessEnablerStatus(
            errorID: ID.callbackNotImplemented, level: fallback ? Level.warning : .error,
            message: "The delegate does not implement \(callback) with the SDK's signature.",
            extras: ["callback": callback])
    }
}
