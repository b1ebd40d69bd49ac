/// Who an event of the reports is counted for: the requestor, the MVPD, the client's platform (``ReportPlatform``) and
/// its application (the software statement's `software_id`, empty when unknown), and the resource, the
/// client family, the kind of single sign-on, whether the sign-in was home-based, the reason of a denial or failure and
/// the application profile the client sent. Empty text: not known or not applicable (a sign-in has no resource, a grant
/// no reason, a client that sends no `AP-Application-Profile` no profile).
package struct ReportKey: Hashable, Sendable {
    /// Requestor id.
    package var requestor: String
    /// MVPD id.
    package var mvpd: String
    /// Platform (one of ``ReportPlatform/all``).
    package var platform: String
    /// Application: the client's software statement id.
    package var app: String
    /// The resource (channel id, or an MRSS resource's channel title), bounded per requestor (`other` past the bound).
    package var resource: String
    /// The client family: `sdk`, `rest-v2`, `rest-v1` or `adobe-services`.
    package var client: String
    /// How the profile came about: `none`, `apple`, `platform`, `service-token`, `temppass` or `degraded`.
    package var sso: String
    /// `true` for a home-based sign-in (the MVPD's `hba_status`), `false` otherwise.
    package var hba: String
    /// The Enhanced Error Code of a denial or failure (`authorization_denied_by_mvpd`…).
    package var reason: String
    /// The application profile the client sent (`AP-Application-Profile`), bounded per requestor (`other` past the
    /// bound, or for a value too long or with other characters); empty when none was sent. The `profile` dimension.
    package var appProfile: String

    /// Creates a key.
    package init(
        requestor: String, mvpd: String, platform: String, app: String, resource: String = "", client: String = "", sso: String = "",
        hba: String = "", reason: String = "", appProfile: String = ""
    ) {
        (self.requestor, self.mvpd, self.platform, self.app) = (requestor, mvpd, platform, app)
        (self.resource, self.client, self.sso, self.hba, self.reason, self.appProfile) = (resource, client, sso, hba, reason, appProfile)
    }

    /// A 64-bit id of the key (FNV-1a over its fields, each followed by a 0 byte), the same on every instance: it links
    /// a row of `report_minutes` to its accounts in `report_accounts` and its visitors in `report_visitors`. The
    /// application profile joins the hash only when there is one, so a row without one keeps the id it had before
    /// migration 114 added the profile.
    package var rowKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ field: String) {
            for byte in field.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for field in [requestor, mvpd, platform, app, resource, client, sso, hba, reason] { add(field) }
        if !appProfile.isEmpty { add(appProfile) }
        return Int64(bitPattern: hash)
    }
}

/// The client side of an event: its platform and application, known from the caller of the request, and what the
/// request itself said of its application profile and visitor.
package struct ReportOrigin: Sendable, Equatable {
    /// Platform (one of ``ReportPlatform/all``).
    package var platform: String
    /// Application: the client's software statement id.
    package var app: String
    /// The client family (``ReportKey/client``).
    package var client: String
    /// The application profile the request sent (``ReportKey/appProfile``, checked but not yet bounded per requestor).
    package var appProfile: String
    /// The visitor the request named (`AP-Visitor-Identifier`, `ap_vi`) as a 64-bit hash, never the value; nil: none.
    package var visitor: Int64?

    /// Creates an origin.
    package init(platform: String, app: String, client: String = "", appProfile: String = "", visitor: Int64? = nil) {
        (self.platform, self.app, self.client, self.appProfile, self.visitor) = (platform, app, client, appProfile, visitor)
    }

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
    /// The accounts (``ReportAccount``) counted in this row, not yet written (the figures of this instance).
    package var accounts: Set<Int64> = []
    /// Distinct accounts of a report row (read back: distinct over every minute and key the row sums up).
    package var uniqueAccounts: Int64 = 0
    /// The visitors (a hash of `AP-Visitor-Identifier`) counted in this row, not yet written (the figures of this
    /// instance).
    package var visitors: Set<Int64> = []
    /// Distinct visitors of a report row (read back, like ``uniqueAccounts``).
    package var uniqueVisitors: Int64 = 0

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
        accounts.formUnion(other.accounts)
        visitors.formUnion(other.visitors)
    }
}
