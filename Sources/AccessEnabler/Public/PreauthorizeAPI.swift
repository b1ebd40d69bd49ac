import EntitleCore
import Foundation

/// The request of Adobe's Preauthorize API (SDK 3.6+): the resources to decide and the caches not to use. Built with
/// ``Builder``, as in Adobe's documentation:
///
/// ```swift
/// let request = PreauthorizeRequest.Builder()
///     .setResources(resources: ["resource_1", "resource_2"])
///     .disableFeatures(features: [PreauthorizeRequest.Feature.LOCAL_CACHE])
///     .build()
/// accessEnabler.preauthorize(request, didCompleteWith: callback)
/// ```
public final class PreauthorizeRequest: Sendable {
    /// A cache the request can bypass; every feature is enabled unless disabled.
    public enum Feature: Hashable, Sendable {
        /// The SDK's own cache of preauthorization decisions: disabled, the service is always asked.
        case LOCAL_CACHE
        /// The service's cache of the MVPD's answers: disabled, the service asks the MVPD again
        /// (sent as `Cache-Control: no-cache`).
        case REMOTE_CACHE
    }

    /// The resource ids (or media RSS fragments agreed with the MVPD) to decide.
    public let resources: [String]
    /// The features disabled for this request.
    public let disabledFeatures: Set<Feature>

    init(resources: [String], disabledFeatures: Set<Feature>) { (self.resources, self.disabledFeatures) = (resources, disabledFeatures) }

    /// Builds a ``PreauthorizeRequest``; each setter returns the builder, for chaining.
    public final class Builder: @unchecked Sendable {
        private let lock = NSLock()
        private var resources: [String] = []
        private var features: Set<Feature> = []

        /// A builder with no resources and every feature enabled.
        public init() {}

        /// Sets the resources to decide.
        @discardableResult
        public func setResources(resources: [String]) -> Builder {
            lock.withLock { self.resources = resources }
            return self
        }

        /// Sets the features to disable.
        @discardableResult
        public func disableFeatures(features: Set<Feature>) -> Builder {
            lock.withLock { self.features = features }
            return self
        }

        /// A new request with the values set so far (the builder is not changed).
        public func build() -> PreauthorizeRequest {
            lock.withLock { PreauthorizeRequest(resources: resources, disabledFeatures: features) }
        }
    }
}

/// What a Preauthorize API call answers: one decision per resource, or a status when it could not be serviced.
public final class PreauthorizeResponse: Sendable {
    /// Why the call failed or was refused (nil on success).
    public let status: Status?
    /// One decision per requested resource, in request order (empty with an error status).
    public let decisions: [Decision]

    init(status: Status?, decisions: [Decision]) { (self.status, self.decisions) = (status, decisions) }

    /// The status, when the call failed or was refused.
    public func getStatus() -> Status? { status }
    /// The decisions.
    public func getDecisions() -> [Decision] { decisions }
}

/// One preauthorization decision.
public final class Decision: Sendable {
    /// The resource.
    public let id: String
    /// Whether it is authorized.
    public let authorized: Bool
    /// Why it is not, when the service said (its Enhanced Error Code).
    public let error: Status?

    init(id: String, authorized: Bool, error: Status?) { (self.id, self.authorized, self.error) = (id, authorized, error) }

    /// The resource id.
    public func getId() -> String { id }
    /// Whether the resource is authorized.
    public func isAuthorized() -> Bool { authorized }
    /// The error of a denied resource, when there is one.
    public func getError() -> Status? { error }
}

/// An error of the Preauthorize API as Adobe's SDK reports it: an Enhanced Error Code from the service, or an error of
/// the SDK itself (HTTP status 0).
public final class Status: Sendable {
    /// The HTTP status (0 when the SDK itself failed).
    public let status: Int
    /// The error code, such as `authorization_denied_by_mvpd` or `authentication_session_missing`.
    public let code: String?
    /// A message for the user.
    public let message: String?
    /// Details from the MVPD or a degradation rule.
    public let details: String?
    /// Where to read more.
    public let helpUrl: String?
    /// An id to quote to support.
    public let trace: String?
    /// What to do: `none`, `configuration`, `application-registration`, `authentication`, `authorization`,
    /// `degradation`, `retry` or `retry-after`.
    public let action: String?

    init(status: Int, code: String?, message: String?, details: String? = nil, helpUrl: String? = nil, trace: String? = nil, action: String?) {
        (self.status, self.code, self.message, self.details, self.helpUrl, self.trace, self.action) = (
            status, code, message, details, helpUrl, trace, action
        )
    }

    convenience init(_ error: EnhancedError) {
        self.init(
            status: error.status, code: error.code.rawValue, message: error.message, details: error.details, helpUrl: error.helpUrl,
            trace: error.trace, action: error.action.rawValue)
    }

    /// The HTTP status (0 from the SDK).
    public func getStatus() -> Int { status }
    /// The error code.
    public func getCode() -> String? { code }
    /// The message.
    public func getMessage() -> String? { message }
    /// The details.
    public func getDetails() -> String? { details }
    /// The help URL.
    public func getHelpUrl() -> String? { helpUrl }
    /// The trace id.
    public func getTrace() -> String? { trace }
    /// The recommended action.
    public func getAction() -> String? { action }
}

/// The callback of the Preauthorize API: `onResponse` when the service answered (decisions, or its error status),
/// `onFailure` when the SDK could not service the call (its status has HTTP status 0). Called on the callback
/// executor, like the delegate. The functions need not be `@Sendable` (Adobe's sample passes plain functions): they
/// only ever run on the callback executor, one job at a time, which is what makes the unchecked conformance sound.
public final class AccessEnablerCallback<T: Sendable>: @unchecked Sendable {
    private let response: (T) -> Void
    private let failure: (T) -> Void

    /// A callback from two functions.
    public init(onResponse: @escaping (T) -> Void, onFailure: @escaping (T) -> Void) {
        (response, failure) = (onResponse, onFailure)
    }

    /// Called with the answer.
    public func onResponse(result: T) { response(result) }
    /// Called when the call could not be serviced.
    public func onFailure(result: T) { failure(result) }
}

extension AccessEnabler {
    /// Adobe's Preauthorize API (`preauthorize:didCompleteWith:`, SDK 3.6+): a decision per resource with the
    /// service's Enhanced Error Codes; ``PreauthorizeRequest/Feature/LOCAL_CACHE`` and
    /// ``PreauthorizeRequest/Feature/REMOTE_CACHE`` can be disabled. Errors of the SDK itself go to `onFailure` with
    /// Adobe's codes (`requestor_not_configured`, `authentication_session_missing`, `authentication_session_expired`,
    /// `access_token_unavailable`, `server_response_format_unknown`, `network_error`).
    public func preauthorize(_ request: PreauthorizeRequest, didCompleteWith callback: AccessEnablerCallback<PreauthorizeResponse>) {
        let executor = hub.executor
        send(
            .preauthorizeDecisions(
                request.resources, localCache: !request.disabledFeatures.contains(.LOCAL_CACHE),
                remoteCache: !request.disabledFeatures.contains(.REMOTE_CACHE)
            ) { result in
                let (response, failed) = Self.preauthorizeResponse(resources: request.resources, result)
                executor.enqueue { failed ? callback.onFailure(result: response) : callback.onResponse(result: response) }
            })
    }

    /// The same call with the labels of Adobe's sample code.
    public func preauthorize(request: PreauthorizeRequest, callback: AccessEnablerCallback<PreauthorizeResponse>) {
        preauthorize(request, didCompleteWith: callback)
    }

    /// The same call, unlabelled (`accessEnabler.preauthorize(request, callback)` in Adobe's sample).
    public func preauthorize(_ request: PreauthorizeRequest, _ callback: AccessEnablerCallback<PreauthorizeResponse>) {
        preauthorize(request, didCompleteWith: callback)
    }

    /// Maps the engine's result to Adobe's response; `failed` when it goes to `onFailure`.
    static func preauthorizeResponse(resources: [String], _ result: Result<[EntitleCore.Decision], AccessEnablerError>) -> (
        PreauthorizeResponse, failed: Bool
    ) {
        switch result {
        case .success(let decisions):
            let byResource = Dictionary(decisions.map { ($0.resource, $0) }, uniquingKeysWith: { first, _ in first })
            let answers = AuthorizationCoordinator.unique(resources).map { resource in
                let decision = byResource[resource]
                return Decision(id: resource, authorized: decision?.authorized ?? false, error: decision?.error.map { Status($0) })
            }
            return (PreauthorizeResponse(status: nil, decisions: answers), false)
        case .failure(let error):
            if let enhanced = error.enhancedError { return (PreauthorizeResponse(status: Status(enhanced), decisions: []), false) }
            let (code, message, action): (String, String, String) =
                switch error.code {
                case .notConfigured:
                    (
                        "requestor_not_configured",
                        "The requestor is not yet configured which is a prerequisite for using any API apart from the setRequestor API.", "retry"
                    )
                case .expired:
                    (
                        "authentication_session_expired",
                        "The current authentication session has expired. The user must re-authenticate with a supported MVPD in order to continue.",
                        "authentication"
                    )
                case .notAuthenticated:
                    (
                        "authentication_session_missing",
                        "The authentication session associated with this request could not be retrieved. The user must re-authenticate with a supported MVPD in order to continue.",
                        "authentication"
                    )
                case .accessToken, .registration:
                    (
                        "access_token_unavailable",
                        "The request failed due to an unexpected error while retrieving the access token. Please check the validity of your software statement and custom scheme.",
                        "none"
                    )
                case .invalidResponse:
                    (
                        "server_response_format_unknown",
                        "The request failed due to an unknown server response format. Please capture the device console logs and contact support.",
                        "none"
                    )
                default:
                    (
                        "network_error",
                        "The request failed due to a network error. If the issue persists over several retries, please capture the device console logs and contact support.",
                        "none"
                    )
                }
            return (PreauthorizeResponse(status: Status(status: 0, code: code, message: message, action: action), decisions: []), true)
        }
    }
}
