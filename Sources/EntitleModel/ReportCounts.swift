/// Who an event of the reports is counted for: the requestor, the MVPD, the client's platform (``ReportPlatform``) and
/// its application (the software statement's `software_id`, empty when unknown).
package struct ReportKey: Hashable, Sendable {
    /// Requestor id.
    package var requestor: String
    /// MVPD id.
    package var mvpd: String
    /// Platform (one of ``ReportPlatform/all``).
    package var platform: String
    /// Application: the client's software statement id.
    package var app: String

    /// Creates a key.
    package init(requestor: String, mvpd: String, platform: String, app: String) {
        (self.requestor, self.mvpd, self.platform, self.app) = (requestor, mvpd, platform, app)
    }
}

/// The client side of an event: its platform and application, known from the caller of the request.
package struct ReportOrigin: Sendable, Equatable {
    /// Platform (one of ``ReportPlatform/all``).
    package var platform: String
    /// Application: the client's software statement id.
    package var app: String

    /// Creates an origin.
    package init(platform: String, app: String) { (self.platform, self.app) = (platform, app) }

    /// A caller that sent no device information and whose application is not known.
    package static let unknown = ReportOrigin(platform: "unknown", app: "")
}

/// The figures of the reports for one key and one period (the ESM figures), added up as events happen.
package struct ReportCounts: Sendable, Equatable {
    /// Sign-ins sent to the MVPD (SAML AuthnRequest or OAuth 2.0 authorization request, partner single sign-on).
    package var authnAttempts: Int64 = 0
    /// Sign-ins that produced a profile.
    package var authnSuccesses: Int64 = 0
    /// Sign-ins the MVPD declined or whose answer was refused.
    package var authnFailures: Int64 = 0
    /// Resources asked for with `authorize` (one play each).
    package var authzAttempts: Int64 = 0
    /// Of those, authorized.
    package var authzGrants: Int64 = 0
    /// Of those, denied (HTTP 403 decisions: the MVPD's no, a degradation rule, a TempPass limit).
    package var authzDenials: Int64 = 0
    /// Of those, failed (the MVPD could not be asked, a malformed resource, an internal error).
    package var authzFailures: Int64 = 0
    /// Short media tokens issued.
    package var mediaTokens: Int64 = 0
    /// `preauthorize` requests.
    package var preauthorizations: Int64 = 0
    /// Resources a `preauthorize` request authorized.
    package var preauthGrants: Int64 = 0
    /// Resources a `preauthorize` request did not authorize.
    package var preauthDenials: Int64 = 0
    /// Calls to the MVPD's authorization API (answers from this instance's cache are not calls).
    package var mvpdCalls: Int64 = 0
    /// Their total duration, ms.
    package var mvpdLatencySumMs: Int64 = 0
    /// The longest of them, ms.
    package var mvpdLatencyMaxMs: Int64 = 0

    /// No events.
    package init() {}

    /// Adds `other` to these figures (the maximum latency is the larger of both).
    package mutating func add(_ other: ReportCounts) {
        authnAttempts += other.authnAttempts
        authnSuccesses += other.authnSuccesses
        authnFailures += other.authnFailures
        authzAttempts += other.authzAttempts
        authzGrants += other.authzGrants
        authzDenials += other.authzDenials
        authzFailures += other.authzFailures
        mediaTokens += other.mediaTokens
        preauthorizations += other.preauthorizations
        preauthGrants += other.preauthGrants
        preauthDenials += other.preauthDenials
        mvpdCalls += other.mvpdCalls
        mvpdLatencySumMs += other.mvpdLatencySumMs
        mvpdLatencyMaxMs = max(mvpdLatencyMaxMs, other.mvpdLatencyMaxMs)
    }
}
