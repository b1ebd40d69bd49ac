import EntitleModel
import SQLKit

/// Privacy requests at the storage level: every row that concerns one device or one MVPD user, read for an export or
/// removed for an erase. The tables and columns it reads are listed once here (``PrivacyStore/Table``); a new
/// table that holds a device id, a user id or a session code belongs in ``select(_:)``.
package struct PrivacyStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

extension Repository {
    /// Privacy requests: what the database holds about a device or an MVPD user.
    package var privacy: PrivacyStore { PrivacyStore(base: base) }
}

extension PrivacyStore {
    /// How a column is read for an export.
    package enum ColumnKind: Sendable { case text, integer, real, withheld }

    /// A table that may hold rows about a subject, with the columns an export shows.
    package struct Table: Sendable {
        package let name: String
        package let holds: String
        package let columns: [(String, ColumnKind)]
    }

    static func table(_ name: String, _ holds: String, text: [String] = [], integer: [String] = [], real: [String] = [], withheld: [String] = [])
        -> Table
    {
        Table(
            name: name, holds: holds,
            columns: text.map { ($0, .text) } + integer.map { ($0, .integer) } + real.map { ($0, .real) } + withheld.map { ($0, .withheld) })
    }

    static let profiles = table(
        "profiles", "authentication profiles (AuthN tokens): the MVPD's user id and user metadata, HBA status included",
        text: [
            "requestor_id", "client_id", "device_id", "mvpd_id", "type", "issuer", "attributes", "name_id", "session_index", "session_code",
            "user_id",
            "lineup",
        ],
        integer: ["not_before", "not_after"])
    static let sessions = table(
        "auth_sessions", "authentication sessions and their registration codes",
        text: [
            "code", "session_id", "requestor_id", "client_id", "device_id", "mvpd_id", "domain_name", "redirect_url", "status", "authn_request_id",
            "failure", "platform", "app", "app_profile",
        ],
        integer: ["created_at", "not_after", "report_visitor"])
    static let legacyAuthorizations = table(
        "legacy_authorizations", "REST API v1 and adobe-services authorizations (AuthZ tokens)",
        text: ["requestor_id", "client_id", "device_id", "resource", "mvpd_id"], integer: ["not_before", "not_after"])
    static let adobeTokens = table(
        "adobe_tokens", "AuthN tokens handed to adobe-services clients",
        text: ["guid", "requestor_id", "client_id", "device_id", "mvpd_id"], integer: ["profile_not_before", "expires_at"])
    static let oauth2Grants = table(
        "oauth2_grants", "OAuth 2.0 MVPDs' refresh tokens (encrypted; never shown)",
        text: ["requestor_id", "client_id", "device_id", "mvpd_id"], integer: ["profile_not_before", "updated_at"], withheld: ["refresh_token"])
    static let oauth2Pending = table(
        "oauth2_pending", "OAuth 2.0 sign-ins waiting for the MVPD's answer", text: ["session_code", "mvpd_id"], integer: ["expires_at"],
        withheld: ["code_verifier"])
    static let ssoSignIns = table(
        "sso_sign_ins", "sign-ins shared under a single sign-on identity (the subject is kept as a SHA-256)",
        text: ["issuer_id", "subject_hash", "requestor_id", "session_code"], integer: ["created_at"])
    static let tempPasses = table(
        "temppasses", "TempPass windows (the device is kept as a SHA-256 with the requestor)",
        text: ["requestor_id", "mvpd_id", "device_key"], integer: ["started_at", "expires_at"])
    static let promoPasses = table(
        "promo_passes", "Promotional TempPasses of the device",
        text: ["pass_key", "requestor_id", "mvpd_id", "identity_key", "device_key"], integer: ["started_at", "expires_at"])
    static let promoResources = table(
        "promo_resources", "resources played with a Promotional TempPass", text: ["pass_key", "resource"], integer: ["used_at"])
    static let rateBuckets = table(
        "rate_buckets", "the device's failed registration-code lookups (rate limit; the device is kept as a SHA-256)",
        text: ["bucket_key"], integer: ["updated_at"], real: ["tokens"])
    static let logoutRequests = table(
        "logout_requests", "Single Logout requests waiting for the MVPD's answer",
        text: ["request_id", "mvpd_id", "redirect_url", "name_id", "session_index"], integer: ["created_at", "expires_at"])
    static let endedSignIns = table(
        "ended_sign_ins", "sign-ins the TV provider ended, kept so that the device is told its sign-in was invalidated",
        text: ["requestor_id", "client_id", "device_id", "mvpd_id", "user_id", "reason"], integer: ["ended_at", "expires_at"])
    static let profileChanges = table(
        "profile_changes", "the feed that tells other instances a profile changed (SQLite)", text: ["requestor_id", "client_id", "device_id"],
        integer: ["seq"])
}

extension PrivacyStore {
    /// The rows of each table that concern the subject, as conditions, and what they were derived from.
    struct Selection {
        var parts: [(Table, SQLQueryString)] = []
        var signIns: [ErasedSignIn] = []
        /// The (requestor, client, device) whose change-feed rows name the subject (SQLite).
        var feedCondition: SQLQueryString?
    }

    /// `column IN (values)`, or a condition that is never true for no values.
    static func isIn(_ column: String, _ values: [String]) -> SQLQueryString {
        values.isEmpty ? "1 = 0" : "\(unsafeRaw: column) IN (\(binds: values))"
    }

    /// `AND requestor_id = R` when the subject is limited to a requestor.
    static func requestorLimit(_ subject: PrivacySubject, column: String = "requestor_id") -> SQLQueryString {
        subject.requestor.map { "AND \(unsafeRaw: column) = \(bind: $0)" } ?? ""
    }

    /// Rows matching one of the (requestor, client, device[, mvpd]) tuples.
    static func anyOf(_ signIns: [ErasedSignIn], mvpd: Bool) -> SQLQueryString {
        guard !signIns.isEmpty else { return "1 = 0" }
        let parts: [SQLQueryString] = signIns.map { s in
            mvpd
                ? "(requestor_id = \(bind: s.requestorId) AND client_id = \(bind: s.clientId) AND device_id = \(bind: s.deviceId) AND mvpd_id = \(bind: s.mvpdId))"
                : "(requestor_id = \(bind: s.requestorId) AND client_id = \(bind: s.clientId) AND device_id = \(bind: s.deviceId))"
        }
        return "(" + parts.joined(separator: " OR ") + ")"
    }

    func strings(_ query: SQLQueryString, _ column: String) async throws -> [String] {
        try await sql.raw(query).all().compactMap { try $0.decode(column: column, as: String?.self) }
    }

    /// Finds every row about the subject.
    func select(_ subject: PrivacySubject) async throws -> Selection {
        var selection = Selection()
        let limit = Self.requestorLimit(subject)
        let profileCondition: SQLQueryString =
            subject.kind == .device ? "device_id = \(bind: subject.identifier) \(limit)" : "user_id = \(bind: subject.identifier) \(limit)"
        let profileRows = try await sql.raw(
            "SELECT requestor_id, client_id, device_id, mvpd_id, user_id, session_code, name_id FROM profiles WHERE \(profileCondition)"
        ).all()
        var codes: [String] = []
        var nameIDs: [String] = []
        for row in profileRows {
            selection.signIns.append(
                ErasedSignIn(
                    requestorId: try row.decode(column: "requestor_id", as: String.self),
                    clientId: try row.decode(column: "client_id", as: String.self),
                    deviceId: try row.decode(column: "device_id", as: String.self), mvpdId: try row.decode(column: "mvpd_id", as: String.self),
                    userId: try row.decode(column: "user_id", as: String.self)))
            if let code = try row.decode(column: "session_code", as: String?.self) { codes.append(code) }
            nameIDs.append(try row.decode(column: "name_id", as: String.self))
        }
        selection.parts.append((Self.profiles, profileCondition))

        switch subject.kind {
        case .device:
            let device = subject.identifier
            let sessionCondition: SQLQueryString = "device_id = \(bind: device) \(limit)"
            codes += try await strings("SELECT code FROM auth_sessions WHERE \(sessionCondition)", "code")
            selection.parts.append((Self.sessions, sessionCondition))
            selection.parts.append((Self.legacyAuthorizations, "device_id = \(bind: device) \(limit)"))
            selection.parts.append((Self.adobeTokens, "device_id = \(bind: device) \(limit)"))
            selection.parts.append((Self.oauth2Grants, "device_id = \(bind: device) \(limit)"))
            selection.parts.append((Self.endedSignIns, "device_id = \(bind: device) \(limit)"))
            // TempPass keeps SHA-256(requestor|device): one key per requestor the device may have used.
            var requestors = selection.signIns.map(\.requestorId)
            if let requestor = subject.requestor {
                requestors = [requestor]
            } else {
                requestors += try await strings("SELECT id FROM requestors", "id")
            }
            let deviceKeys = Array(Set(requestors.map { Secrets.sha256Hex($0 + "|" + device) })).sorted()
            selection.parts.append((Self.tempPasses, Self.isIn("device_key", deviceKeys)))
            let passKeys = try await strings("SELECT pass_key FROM promo_passes WHERE \(Self.isIn("device_key", deviceKeys))", "pass_key")
            selection.parts.append((Self.promoResources, Self.isIn("pass_key", passKeys)))
            selection.parts.append((Self.promoPasses, Self.isIn("device_key", deviceKeys)))
            // Failed code lookups are counted per device (AuthenticationSessions.countFailedCodeLookup).
            selection.parts.append((Self.rateBuckets, "bucket_key = \(bind: "badcode:" + Secrets.sha256Hex(device))"))
            selection.feedCondition = "device_id = \(bind: device) \(limit)"
        case .user:
            let signIns = selection.signIns
            codes += try await strings("SELECT code FROM auth_sessions WHERE \(Self.isIn("code", codes))", "code")
            selection.parts.append((Self.sessions, Self.isIn("code", codes)))
            selection.parts.append((Self.legacyAuthorizations, Self.anyOf(signIns, mvpd: true)))
            selection.parts.append((Self.adobeTokens, Self.anyOf(signIns, mvpd: true)))
            selection.parts.append((Self.oauth2Grants, Self.anyOf(signIns, mvpd: true)))
            selection.parts.append((Self.endedSignIns, "user_id = \(bind: subject.identifier) \(limit)"))
            nameIDs.append(subject.identifier)
            selection.feedCondition = signIns.isEmpty ? nil : Self.anyOf(signIns, mvpd: false)
        }
        let uniqueCodes = Array(Set(codes)).sorted()
        selection.parts.append((Self.ssoSignIns, "\(Self.isIn("session_code", uniqueCodes)) \(limit)"))
        selection.parts.append((Self.oauth2Pending, Self.isIn("session_code", uniqueCodes)))
        selection.parts.append((Self.logoutRequests, Self.isIn("name_id", Array(Set(nameIDs)).sorted())))
        return selection
    }
}
