import EntitleCore
import Foundation

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
    /// The Preauthorize API: every decision (with its error), the SDK's and the service's caches each optional.
    case preauthorizeDecisions([String], localCache: Bool, remoteCache: Bool, reply: Reply<[EntitleCore.Decision]>)
    case authorize(String, mode: AuthorizationStateMachine.Mode, data: [String: any Sendable]?, reply: Reply<String>?)
    case logout(reply: Reply<Void>?)
    case getSelectedProvider(reply: Reply<MVPD?>?)
    case getMetadata([String: any Sendable], reply: Reply<MetadataResult>?)
    case providers(reply: Reply<[MVPD]>)
}
