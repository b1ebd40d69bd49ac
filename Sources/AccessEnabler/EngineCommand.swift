import EntitleCore
import Foundation

/// The answer of a metadata query.
public struct MetadataResult: Sendable, Equatable {
    /// The value (a string for TTLs and the device id), or nil when unavailable.
    public var value: JSONValue?
    /// Whether the value is encrypted for the programmer (decrypt with ``UserMetadataDecryptor``).
    public var encrypted: Bool
    /// Creates a result.
    public init(value: JSONValue?, encrypted: Bool) {
        self.value = value
        self.encrypted = encrypted
    }
}

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

/// Calls from the public API to the engine, in the order they were made.
enum EngineCommand: Sendable {
    typealias Reply<T: Sendable> = @Sendable (Result<T, AccessEnablerError>) -> Void

    case setOptions([String: any Sendable])
    case setRequestor(String, providers: [URL], reply: Reply<[MVPD]>?)
    case checkAuthentication(reply: Reply<String>?)
    case getAuthentication(force: Bool, data: [String: any Sendable]?, filter: [String: any Sendable]?, reply: Reply<String>?)
    case selectProvider(String?, reply: Reply<String>?)
    case startSecondScreen(mvpd: String?, reply: Reply<String>?)
    case handleExternalURL(String)
    case checkPreauthorized([String], cache: Bool, reply: Reply<[String]>?)
    case authorize(String, mode: AuthorizationStateMachine.Mode, data: [String: any Sendable]?, reply: Reply<String>?)
    case logout(reply: Reply<Void>?)
    case getSelectedProvider(reply: Reply<MVPD?>?)
    case getMetadata([String: any Sendable], reply: Reply<MetadataResult>?)
    case providers(reply: Reply<[MVPD]>)
}
