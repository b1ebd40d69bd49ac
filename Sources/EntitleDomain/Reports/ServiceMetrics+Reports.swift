import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import Prometheus

/// The events of the reports (Adobe ESM's figures), counted twice from one call: into the per-minute figures that
/// the service flushes to the database (``ReportAccumulator``) and into Prometheus series labelled by requestor, MVPD
/// and platform with bounded values (``BoundedLabels``). Every front end (REST v2, v1, adobe-services) reaches these
/// through the domain services, so each event is counted once, where it happens.
extension ServiceMetrics {
    /// What became of a sign-in.
    package enum SignInEvent: String { case attempt, success, failure }

    /// What an `authorize` decision said about one resource.
    package enum AuthorizationOutcome: String { case granted, denied, failed }

    package static func signInDescriptor(_ event: SignInEvent) -> MetricNameDescriptor {
        switch event {
        case .attempt:
            .init(
                namespace: "entitle", metricName: "signin_attempts", unitName: "total",
                helpText: "Sign-ins sent to an MVPD, by requestor, MVPD and platform.")
        case .success:
            .init(
                namespace: "entitle", metricName: "signin_successes", unitName: "total",
                helpText: "Sign-ins that produced a profile, by requestor, MVPD and platform.")
        case .failure:
            .init(
                namespace: "entitle", metricName: "signin_failures", unitName: "total",
                helpText: "Sign-ins the MVPD declined or whose answer was refused, by requestor, MVPD and platform.")
        }
    }
    package static var authorizationsDescriptor: MetricNameDescriptor {
        .init(
            namespace: "entitle", metricName: "authorizations", unitName: "total",
            helpText: "Resources decided by authorize, by requestor, MVPD, platform and outcome (granted, denied, failed).")
    }
    package static var mediaTokensDescriptor: MetricNameDescriptor {
        .init(
            namespace: "entitle", metricName: "media_tokens", unitName: "total",
            helpText: "Short media tokens issued, by requestor, MVPD and platform.")
    }
    package static var preauthorizationsDescriptor: MetricNameDescriptor {
        .init(
            namespace: "entitle", metricName: "preauthorizations", unitName: "total",
            helpText: "Preauthorize requests, by requestor, MVPD and platform.")
    }
    package static var preauthorizedResourcesDescriptor: MetricNameDescriptor {
        .init(
            namespace: "entitle", metricName: "preauthorized_resources", unitName: "total",
            helpText: "Resources decided by preauthorize, by requestor, MVPD, platform and outcome (granted, denied).")
    }
    package static var mvpdCallDescriptor: MetricNameDescriptor {
        .init(
            namespace: "entitle", metricName: "mvpd_authorization_call_duration", unitName: "seconds",
            helpText: "Calls to MVPD authorization APIs and their latency, by requestor and MVPD.")
    }

    /// `key` with its application profile bounded per requestor (``ReportLabels/appProfiles(limit:)``; empty stays
    /// empty). Bounding a bounded key again changes nothing.
    package func bounded(_ key: ReportKey, at now: Int64) -> ReportKey {
        guard !key.appProfile.isEmpty else { return key }
        var key = key
        key.appProfile = appProfiles.value(requestor: key.requestor, key.appProfile, at: now)
        return key
    }

    /// Counts a sign-in event at `now` (ms). A success names the profile it produced (its `sso`, `hba` and account); a
    /// failure may name its `reason` (an Enhanced Error Code); `visitor` is the session's (``AuthSessionRecord/reportVisitor``).
    package func recordSignIn(
        _ event: SignInEvent, key: ReportKey, profile: ProfileRecord? = nil, reason: String? = nil, visitor: Int64? = nil, at now: Int64
    ) {
        var key = bounded(key, at: now)
        if let profile {
            key.sso = profile.reportSSO
            key.hba = profile.reportHBA
        }
        if let reason { key.reason = labels.value("reason", reason) }
        let account = profile?.reportAccount
        reports.count(key, at: now) { counts in
            switch event {
            case .attempt: counts.authnAttempts += 1
            case .success: counts.authnSuccesses += 1
            case .failure: counts.authnFailures += 1
            }
            if let account { counts.accounts.insert(account) }
            if let visitor { counts.visitors.insert(visitor) }
        }
        esm.series(key).increment(.signIn(event))
    }

    /// Counts the decisions of one request into its series and minutes, the series looked up once: each decision in
    /// `entitle_decisions_total` (authorized, denied, error); for `authorize` (`issueTokens`) each resource as granted,
    /// denied (403) or failed and the media tokens delivered (`deliversTokens`: REST v1 `authorize` keeps only the
    /// decision); for `preauthorize` the request (in the row without a resource) and its resources as granted or
    /// denied. Each resource is counted in the row of its resource and reason (the decision's Enhanced Error Code); the
    /// account of `profile` and the request's `visitor` join each `authorize` row and, for `preauthorize`, only the
    /// request's row (a preflight of 20 channels would otherwise add 20 account rows per request); `key` carries the
    /// request's other dimensions.
    package func recordDecisions(
        _ decisions: [Decision], issueTokens: Bool, deliversTokens: Bool, key: ReportKey, profile: ProfileRecord? = nil,
        visitor: Int64? = nil, at now: Int64
    ) {
        let key = bounded(key, at: now)
        let series = esm.series(key)
        let account = profile?.reportAccount
        var granted: Int64 = 0
        var denied: Int64 = 0
        var failed: Int64 = 0
        var mediaTokens: Int64 = 0
        for decision in decisions {
            let outcome: ESMSeries.DecisionOutcome =
                decision.authorized ? .authorized : (decision.error?.status == 403 ? .denied : .error)
            series.increment(.decisions(issueTokens: issueTokens, outcome: outcome))
            let token = deliversTokens && decision.token != nil
            switch outcome {
            case .authorized: granted += 1
            case .denied: denied += 1
            case .error: failed += 1
            }
            if token { mediaTokens += 1 }
            var row = key
            row.resource = resources.value(requestor: key.requestor, decision.resource, at: now)
            if outcome != .authorized { row.reason = labels.value("reason", (decision.error ?? .internalServerError).code.rawValue) }
            reports.count(row, at: now) { counts in
                if issueTokens {
                    counts.authzAttempts += 1
                    switch outcome {
                    case .authorized: counts.authzGrants += 1
                    case .denied: counts.authzDenials += 1
                    case .error: counts.authzFailures += 1
                    }
                    if token { counts.mediaTokens += 1 }
                    if let account { counts.accounts.insert(account) }
                    if let visitor { counts.visitors.insert(visitor) }
                } else if outcome == .authorized {
                    counts.preauthGrants += 1
                } else {
                    counts.preauthDenials += 1
                }
            }
        }
        guard issueTokens else {
            reports.count(key, at: now) { counts in
                counts.preauthorizations += 1
                if let account { counts.accounts.insert(account) }
                if let visitor { counts.visitors.insert(visitor) }
            }
            series.increment(.preauthorizations)
            if granted > 0 { series.increment(.preauthorizedResources(granted: true), by: granted) }
            if denied + failed > 0 { series.increment(.preauthorizedResources(granted: false), by: denied + failed) }
            return
        }
        if granted > 0 { series.increment(.authorizations(.granted), by: granted) }
        if denied > 0 { series.increment(.authorizations(.denied), by: denied) }
        if failed > 0 { series.increment(.authorizations(.failed), by: failed) }
        if mediaTokens > 0 { series.increment(.mediaTokens, by: mediaTokens) }
    }

    /// Counts a media token issued outside a decision (REST v1 `mediatoken`, adobe-services `tokens/media`) for
    /// `resource`, `profile` and the request's `visitor`.
    package func recordMediaToken(
        key: ReportKey, resource: String? = nil, profile: ProfileRecord? = nil, visitor: Int64? = nil, at now: Int64
    ) {
        var key = bounded(key, at: now)
        if let resource { key.resource = resources.value(requestor: key.requestor, resource, at: now) }
        if let profile {
            key.sso = profile.reportSSO
            key.hba = profile.reportHBA
        }
        let account = profile?.reportAccount
        reports.count(key, at: now) { counts in
            counts.mediaTokens += 1
            if let account { counts.accounts.insert(account) }
            if let visitor { counts.visitors.insert(visitor) }
        }
        esm.series(key).increment(.mediaTokens)
    }

    /// Counts a call to an MVPD's authorization API that took `duration`.
    package func recordMVPDCall(duration: Duration, key: ReportKey, at now: Int64) {
        let milliseconds = max(0, duration.nanoseconds / 1_000_000)
        reports.count(bounded(key, at: now), at: now) { counts in
            counts.mvpdCalls += 1
            counts.mvpdLatencySumMs += milliseconds
            counts.mvpdLatencyMaxMs = max(counts.mvpdLatencyMaxMs, milliseconds)
        }
        handles.histogram(
            Self.mvpdCallDescriptor,
            labels: [("requestor", labels.value("requestor", key.requestor)), ("mvpd", labels.value("mvpd", key.mvpd))],
            buckets: [
                .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
            ]
        )
        .recordNanoseconds(duration.nanoseconds)
    }
}

extension ReportKey {
    /// The key of a sign-in: the session's requestor, MVPD, platform, app, client family and application profile; `sso`
    /// the kind of the sign-in (`none`: at the MVPD's page).
    package init(session: AuthSessionRecord, mvpd: String, sso: String = "none") {
        self.init(
            requestor: session.requestorId, mvpd: mvpd, platform: session.platform ?? "unknown", app: session.app ?? "",
            client: session.reportClient ?? "", sso: sso, appProfile: session.appProfile ?? "")
    }

    /// The key of a decision for `origin`'s client and `profile` (its kind of sign-in and whether it was home-based).
    package init(requestor: String, mvpd: String, origin: ReportOrigin, profile: ProfileRecord? = nil) {
        self.init(
            requestor: requestor, mvpd: mvpd, platform: origin.platform, app: origin.app, client: origin.client,
            sso: profile?.reportSSO ?? "", hba: profile?.reportHBA ?? "", appProfile: origin.appProfile)
    }
}

extension ReportOrigin {
    /// The origin a session recorded of the client that created it (REST v1's `preauthorize/{code}` counts for it).
    package init(session: AuthSessionRecord, client: String) {
        self.init(
            platform: session.platform ?? "unknown", app: session.app ?? "", client: session.reportClient ?? client,
            appProfile: session.appProfile ?? "", visitor: session.reportVisitor)
    }
}
