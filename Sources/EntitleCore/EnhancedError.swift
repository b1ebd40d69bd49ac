import Foundation

/// An Adobe Pass Enhanced Error Code body: the shape of every failure on the REST API v2 wire.
public struct EnhancedError: Error, Codable, Sendable, Equatable {
    /// What the client should do next (``Action/none``, ``Action/authentication``, ``Action/retry``, …); an open set.
    public var action: Action
    /// The HTTP status this error maps to (item-level errors may differ from the response status).
    public var status: Int
    /// The machine-readable error code, such as ``Code/invalidParameterMVPD``; an open set.
    public var code: Code
    /// A human-readable explanation.
    public var message: String
    /// Text supplied by the MVPD or programmer, when there is one.
    public var details: String?
    /// Where the code is documented.
    public var helpUrl: String
    /// A unique id for support.
    public var trace: String

    /// The documentation page of the Enhanced Error Codes.
    public static let defaultHelpURL =
        "https://experienceleague.adobe.com/docs/pass/authentication/auth-features/error-reportn/enhanced-error-codes.html"

    /// Creates an error body; `trace` defaults to a fresh UUID.
    public init(
        action: Action, status: Int, code: Code, message: String, details: String? = nil,
        helpUrl: String = EnhancedError.defaultHelpURL, trace: String = UUID().uuidString.lowercased()
    ) {
        self.action = action
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.helpUrl = helpUrl
        self.trace = trace
    }

    /// Returns a copy with `details` set.
    public func with(details: String?) -> EnhancedError {
        var copy = self
        copy.details = details
        return copy
    }

    /// Returns a copy with `message` replaced.
    public func with(message: String) -> EnhancedError {
        var copy = self
        copy.message = message
        return copy
    }
}

extension EnhancedError: CustomStringConvertible {
    /// `code (status): message`.
    public var description: String { "\(code) (\(status)): \(message)" }
}
