import Foundation

/// What a second-screen login shows: the registration code and where to enter it.
public struct RegistrationCode: Sendable, Equatable {
    /// The code.
    public var code: String
    /// The URL where the user completes the login on another device.
    public var activationURL: String
    /// When the code expires.
    public var notAfter: Date?
    /// Creates a registration code.
    public init(code: String, activationURL: String, notAfter: Date?) {
        self.code = code
        self.activationURL = activationURL
        self.notAfter = notAfter
    }
}
