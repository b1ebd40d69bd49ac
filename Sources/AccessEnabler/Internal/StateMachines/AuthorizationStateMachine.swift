import EntitleCore
import Foundation

/// Authorization requests (`checkAuthorization` / `getAuthorization`): decide now when authenticated; otherwise
/// `check` fails at once and `get` waits for an authentication it starts. Also turns decisions and failures into
/// the callbacks of the API reference.
struct AuthorizationStateMachine: Sendable {
    enum Mode: Sendable, Equatable {
        /// `checkAuthorization`: never starts authentication.
        case check
        /// `getAuthorization`: starts authentication when needed, then continues.
        case get
    }

    struct Request: Sendable, Equatable {
        var id: Int
        var resource: String
        var mode: Mode
    }

    enum Action: Sendable, Equatable {
        /// Ask the service for a decision.
        case decide(Request)
        /// `tokenRequestFailed(resource, USER_NOT_AUTHENTICATED_ERROR, "")`.
        case failNotAuthenticated(Request)
        /// Start the authentication flow (`displayProviderDialog`).
        case startAuthentication
    }

    /// How one authorization ended.
    enum Outcome: Sendable, Equatable {
        /// `setToken(token, resource)`; `notAfter` of the decision is kept for `getMetadata`; `statusID` (`Z011`
        /// TempPass, `Z010` degraded) is reported with it.
        case token(String, notAfter: Date?, statusID: String?)
        /// `tokenRequestFailed(resource, code, description)` plus `status(statusID)`.
        case failed(code: String, description: String, statusID: String)
        /// The profile is gone or expired: forget it, then fail like ``failed(code:description:statusID:)``.
        case authenticationLost(description: String, statusID: String)
    }

    private(set) var waiting: [Request] = []

    /// A new request.
    mutating func authorize(_ request: Request, authenticated: Bool, authenticationInProgress: Bool) -> [Action] {
        if authenticated { return [.decide(request)] }
        if request.mode == .check { return [.failNotAuthenticated(request)] }
        waiting.append(request)
        return authenticationInProgress ? [] : [.startAuthentication]
    }

    /// The authentication flow ended: waiting requests continue or fail.
    mutating func authenticationFinished(success: Bool) -> [Action] {
        let pending = waiting
        waiting = []
        return pending.map { success ? .decide($0) : .failNotAuthenticated($0) }
    }

    /// The outcome of a decision answer for one resource. `tokenRequestFailed` codes: `USER_NOT_AUTHORIZED_ERROR` for a
    /// denial (the spec's code), `GENERIC_AUTHORIZATION_ERROR` when the MVPD or the network failed or the service
    /// throttled (try again), `INTERNAL_AUTHORIZATION_ERROR` for an answer the SDK cannot use (as Adobe's SDK reports a
    /// non-200 answer); `USER_NOT_AUTHENTICATED_ERROR` (no sign-in) is sent by the engine. See docs/access-enabler.md.
    static func outcome(of decision: EntitleCore.Decision?) -> Outcome {
        guard let decision else {
            return .failed(
                code: INTERNAL_AUTHORIZATION_ERROR, description: "The service returned no decision.",
                statusID: AccessEnablerStatus.ID.authorizationInternal)
        }
        if decision.authorized {
            guard let token = decision.token else {
                return .failed(
                    code: INTERNAL_AUTHORIZATION_ERROR, description: "The decision carries no media token.",
                    statusID: AccessEnablerStatus.ID.authorizationInternal)
            }
            let notAfter = (decision.notAfter ?? token.notAfter) as Int64?
            let statusID: String? =
                switch decision.source {
                case .tempPass: AccessEnablerStatus.ID.tempPassAuthorized
                case .degradation: AccessEnablerStatus.ID.degradedAuthorization
                default: nil
                }
            return .token(
                token.serializedToken, notAfter: notAfter.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                statusID: statusID)
        }
        guard let error = decision.error else {
            return .failed(code: USER_NOT_AUTHORIZED_ERROR, description: "", statusID: AccessEnablerStatus.ID.authorizationDenied)
        }
        return outcome(of: error)
    }

    /// The outcome of an Enhanced Error (item-level or whole request).
    static func outcome(of error: EnhancedError) -> Outcome {
        let description = error.details ?? error.message
        switch error.action {
        case .authentication:
            let status =
                error.code == .temporaryAccessDurationLimitExceeded
                ? AccessEnablerStatus.ID.tempPassExpired : AccessEnablerStatus.ID.authenticationNotFound
            return .authenticationLost(description: description, statusID: status)
        case .retry, .retryAfter:
            return .failed(code: GENERIC_AUTHORIZATION_ERROR, description: description, statusID: AccessEnablerStatus.ID.mvpdCommunication)
        default:
            if error.code == .authorizationDeniedByDegradationRule {
                return .failed(code: USER_NOT_AUTHORIZED_ERROR, description: description, statusID: AccessEnablerStatus.ID.degradationDenied)
            }
            if error.code == .invalidParameterResources {
                return .failed(code: GENERIC_AUTHORIZATION_ERROR, description: description, statusID: AccessEnablerStatus.ID.invalidResource)
            }
            if error.status == 403 || error.code.rawValue.contains("denied") {
                return .failed(code: USER_NOT_AUTHORIZED_ERROR, description: description, statusID: AccessEnablerStatus.ID.authorizationDenied)
            }
            return .failed(code: INTERNAL_AUTHORIZATION_ERROR, description: description, statusID: AccessEnablerStatus.ID.authorizationInternal)
        }
    }

    /// The outcome of a failed decisions request.
    static func outcome(of error: AccessEnablerError) -> Outcome {
        if let enhanced = error.enhancedError, error.code == .server { return outcome(of: enhanced) }
        switch error.code {
        case .throttled:
            return .failed(code: GENERIC_AUTHORIZATION_ERROR, description: error.message, statusID: AccessEnablerStatus.ID.authorizationDenied)
        case .network, .server:
            return .failed(code: GENERIC_AUTHORIZATION_ERROR, description: error.message, statusID: AccessEnablerStatus.ID.mvpdCommunication)
        default:
            // A failure inside the SDK or an answer it cannot use: Adobe's "Internal Authorization Error".
            return .failed(
                code: INTERNAL_AUTHORIZATION_ERROR, description: error.message,
                statusID: error.statusID ?? AccessEnablerStatus.ID.authorizationInternal)
        }
    }
}

/// Preauthorization decisions kept until their `notAfter` (`checkPreauthorizedResources(_:cache: true)`).
struct PreauthorizationCache: Sendable {
    /// How long a decision without `notAfter` is kept.
    static let defaultLifetime: TimeInterval = 5 * 60

    private var entries: [String: (authorized: Bool, notAfter: Date)] = [:]

    private static func key(_ mvpd: String, _ resource: String) -> String { mvpd + "\u{1}" + resource }

    /// The cached answers for `resources`, and the resources that need the service.
    func lookup(_ resources: [String], mvpd: String, now: Date) -> (known: [String: Bool], missing: [String]) {
        var known: [String: Bool] = [:]
        var missing: [String] = []
        for resource in resources {
            if let entry = entries[Self.key(mvpd, resource)], entry.notAfter > now {
                known[resource] = entry.authorized
            } else if !missing.contains(resource) {
                missing.append(resource)
            }
        }
        return (known, missing)
    }

    /// Keeps `decisions` of `mvpd`.
    mutating func store(_ decisions: [EntitleCore.Decision], mvpd: String, now: Date) {
        for decision in decisions {
            let notAfter =
                decision.notAfter.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                ?? now.addingTimeInterval(Self.defaultLifetime)
            entries[Self.key(mvpd, decision.resource)] = (decision.authorized, notAfter)
        }
    }

    /// Forgets everything.
    mutating func clear() { entries = [:] }

    var count: Int { entries.count }
}
