import EntitleCore

/// A failure of the SDK, as thrown by the async API. The `status` callback carries the same `statusID`.
public struct AccessEnablerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; an open set.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// The network failed (no connection, timeout, dropped connection).
        public static let network = Code("network")
        /// The service answered with an error body or an unexpected status.
        public static let server = Code("server")
        /// The service answered with something that could not be decoded.
        public static let invalidResponse = Code("invalid_response")
        /// The service throttled the client (HTTP 429); see ``AccessEnablerError/retryAfter``.
        public static let throttled = Code("throttled")
        /// The software statement was rejected (DCR registration failed).
        public static let registration = Code("registration")
        /// No access token could be obtained.
        public static let accessToken = Code("access_token")
        /// `setRequestor` has not succeeded.
        public static let notConfigured = Code("not_configured")
        /// The user is not authenticated.
        public static let notAuthenticated = Code("not_authenticated")
        /// The MVPD denied authorization; ``AccessEnablerError/details`` carries its message.
        public static let notAuthorized = Code("not_authorized")
        /// The flow was cancelled (provider not selected, polling cancelled, superseded).
        public static let cancelled = Code("cancelled")
        /// A registration code or session expired before it was used.
        public static let expired = Code("expired")
        /// The MVPD id or an argument is unknown or malformed.
        public static let invalidArgument = Code("invalid_argument")
        /// Local storage failed.
        public static let storage = Code("storage")
    }

    /// The kind of failure.
    public var code: Code
    /// A human-readable message.
    public var message: String
    /// The `status` id reported with it (`CFG404`, `R401`, `Z100`, …), when there is one.
    public var statusID: String?
    /// MVPD- or service-supplied detail (for a denial, the MVPD's message).
    public var details: String?
    /// The service's Enhanced Error Code body, when the service sent one.
    public var enhancedError: EnhancedError?
    /// The HTTP status, when the failure came from an HTTP answer.
    public var httpStatus: Int?
    /// Seconds to wait before retrying (HTTP 429 `Retry-After`).
    public var retryAfter: Double?
    /// Why the service could not be reached, for a ``Code/network`` failure of the transport.
    public var networkReason: NetworkReason?

    /// Creates an error.
    public init(
        code: Code, message: String, statusID: String? = nil, details: String? = nil,
        enhancedError: EnhancedError? = nil, httpStatus: Int? = nil, retryAfter: Double? = nil
    ) {
        self.code = code
        self.message = message
        self.statusID = statusID
        self.details = details
        self.enhancedError = enhancedError
        self.httpStatus = httpStatus
        self.retryAfter = retryAfter
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// Returns a copy with `statusID` set.
    func with(statusID: String?) -> AccessEnablerError {
        var copy = self
        copy.statusID = statusID
        return copy
    }
}
