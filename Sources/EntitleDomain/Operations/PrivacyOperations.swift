import Crypto
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Privacy requests, for every front end (`entitle admin privacy export|erase`, `POST /admin/api/privacy/…`):
/// everything the service holds about one device or one MVPD user, exported as JSON or erased from every store. Each
/// request is recorded in the changes log with its reason and a keyed hash of the identifier, never the identifier.
package struct PrivacyOperations: Sendable {
    private let repository: Repository
    private let changes: ChangeRecorder
    private let authorizations: AuthorizationCache
    private let rateLimiter: DeviceRateLimiter
    private let reports: ReportOperations
    private let clock: any ServiceClock

    /// The name of the shared secret that keys the identifiers' hashes in the changes log.
    package static let hashKeyName = "privacy-request-hash-key"
    /// The longest identifier accepted (a device id is at most 512 bytes, ``DeviceIdentifier``).
    package static let maximumIdentifierLength = 1024

    /// Creates the operations over the repository, the changes log, this instance's MVPD answers and its reports.
    package init(
        repository: Repository, changes: ChangeRecorder, authorizations: AuthorizationCache, rateLimiter: DeviceRateLimiter,
        reports: ReportOperations, clock: any ServiceClock
    ) {
        self.repository = repository
        self.changes = changes
        self.authorizations = authorizations
        self.rateLimiter = rateLimiter
        self.reports = reports
        self.clock = clock
    }

    /// Everything held about the subject, as a privacy export; recorded as `privacy.export`.
    package func export(_ subject: PrivacySubject, reason: String, actor: String) async throws -> PrivacyExport {
        let reason = try await check(subject, reason: reason, change: false)
        var stores = try await repository.privacy.holdings(subject)
        // A scoped operator sees the changes-log entries it may see (its requestors' and MVPDs').
        if let index = stores.firstIndex(where: { $0.table == "admin_changes" }), OperatorReach.scoped != nil {
            stores[index].rows = stores[index].rows.filter { row in
                guard case .text(let actor) = row["actor"], case .text(let action) = row["action"], case .text(let target) = row["target"]
                else { return false }
                return OperatorReach.maySee(change: ChangeRecord(id: "", at: 0, actor: actor, action: action, target: target))
            }
        }
        if subject.kind == .user { stores.append(try await repository.privacy.reportAccountRows(try await reportAccounts(of: subject))) }
        let hash = try await keyedHash(subject)
        let rows = Dictionary(stores.map { ($0.table, $0.rows.count) }, uniquingKeysWith: +)
        try await record(
            "privacy.export", subject: subject, hash: hash, reason: reason, actor: actor, after: PrivacyLogEntry(subject, hash, reason, rows: rows))
        return PrivacyExport(
            subject: .init(kind: subject.kind, identifier: subject.identifier, requestor: subject.requestor),
            generatedAt: Date(timeIntervalSince1970: Double(clock.nowMilliseconds()) / 1000).ISO8601Format(), reason: reason, stores: stores,
            memory: PrivacyExport.memoryNote, reports: PrivacyExport.reportsNote)
    }

    /// Removes everything held about the subject from every store, drops it from this instance's caches (the other
    /// instances within the profile feed's bound), leaves no copy in the database file (`vacuum`: rebuild it, see
    /// ``PrivacyStore/scrubFile(tables:vacuum:)``), and records `privacy.erase`.
    package func erase(_ subject: PrivacySubject, reason: String, vacuum: Bool = false, actor: String) async throws -> PrivacyEraseResult {
        let reason = try await check(subject, reason: reason, change: true)
        let hash = try await keyedHash(subject)
        // The user's pseudonymous account in the reports is unlinked first (this instance's pending figures written, so
        // that they are unlinked too); the rewrite's old values then go with the erase's scrub of the file.
        var unlinked = 0
        if subject.kind == .user {
            try await reports.flush()
            for account in try await reportAccounts(of: subject) { unlinked += try await repository.reportStore.unlinkReportAccount(account) }
        }
        var erasure = try await repository.privacy.erase(subject, vacuum: vacuum)
        erasure.removed["report_accounts (unlinked)"] = unlinked
        for signIn in erasure.signIns {
            authorizations.drop(requestor: signIn.requestorId, mvpd: signIn.mvpdId, userID: signIn.userId)
        }
        // This instance's request-rate bucket of the device, kept under its AP-Device-Identifier header as sent.
        for device in Set(erasure.signIns.map(\.deviceId) + (subject.kind == .device ? [subject.identifier] : [])) {
            if let identifier = DeviceIdentifier(rawValue: device) { rateLimiter.forget("dev:" + identifier.headerValue) }
        }
        try await record(
            "privacy.erase", subject: subject, hash: hash, reason: reason, actor: actor,
            after: PrivacyLogEntry(subject, hash, reason, rows: erasure.removed, changesScrubbed: erasure.changesScrubbed))
        return PrivacyEraseResult(
            subjectHash: hash, removed: erasure.removed, signIns: erasure.signIns.count, changesScrubbed: erasure.changesScrubbed,
            storage: erasure.storage, bounds: PrivacyEraseResult.boundsNote)
    }

    /// The keyed hash (HMAC-SHA256 with a secret every instance shares) of the subject's kind and identifier: the
    /// changes log can tell two requests about the same subject apart from others without naming it.
    package func keyedHash(_ subject: PrivacySubject) async throws -> String {
        let secret = try await repository.keyStore.sharedSecret(name: Self.hashKeyName, now: clock.nowMilliseconds()) { Secrets.randomToken() }
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data((subject.kind.rawValue + ":" + subject.identifier).utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// The user's accounts as the reports count them, one per MVPD of the catalog.
    private func reportAccounts(of subject: PrivacySubject) async throws -> [Int64] {
        try await repository.privacy.mvpdIDs().map { ReportAccount.id(mvpd: $0, userID: subject.identifier) }
    }

    /// Checks the request; returns the reason without the identifier in it (it is recorded).
    /// A scoped operator must name one of its requestors (an MVPD partner may not make privacy requests):
    /// the records of every requestor are the whole service's.
    private func check(_ subject: PrivacySubject, reason: String, change: Bool) async throws -> String {
        switch (subject.requestor, change) {
        case (let requestor?, true): try OperatorReach.requireRequestor(requestor)
        case (let requestor?, false): try OperatorReach.requireVisibleRequestor(requestor)
        case (nil, true): try OperatorReach.requireServiceWide("a privacy request for every requestor (give --requestor)")
        case (nil, false): try OperatorReach.requireVisibleServiceWide("a privacy request for every requestor (give --requestor)")
        }
        guard !subject.identifier.isEmpty, subject.identifier.utf8.count <= Self.maximumIdentifierLength,
            subject.identifier.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else {
            throw AdminError("invalid_value", "the \(subject.kind == .device ? "device id" : "user id") must be 1 to 1024 printable characters")
        }
        guard let trimmed = try ChangeDescription.normalized(reason) else {
            throw AdminError("invalid_value", "a privacy request needs its reason (--reason, or \"reason\" in the API)")
        }
        if let requestor = subject.requestor, try await repository.catalogStore.requestor(id: requestor) == nil {
            throw AdminError.unknown("requestor", requestor, hint: "`entitle admin requestor list` lists them")
        }
        return trimmed.replacingOccurrences(of: subject.identifier, with: "[erased]")
    }

    private func record(
        _ action: String, subject: PrivacySubject, hash: String, reason: String, actor: String, after: PrivacyLogEntry
    ) async throws {
        try await ChangeDescription.$current.withValue(reason) {
            try await changes.record(actor: actor, action: action, target: "\(subject.kind.rawValue):\(hash)", after: after)
        }
    }
}

/// What the changes log keeps of a privacy request: the kind of subject, the keyed hash, the requestor limit, the reason
/// and the rows found or removed per table.
struct PrivacyLogEntry: Encodable, Sendable {
    var subject: String
    var subjectHash: String
    var requestor: String?
    var reason: String
    var rows: [String: Int]
    var changesScrubbed: Int?

    init(_ subject: PrivacySubject, _ hash: String, _ reason: String, rows: [String: Int], changesScrubbed: Int? = nil) {
        self.subject = subject.kind.rawValue
        subjectHash = hash
        requestor = subject.requestor
        self.reason = reason
        self.rows = rows
        self.changesScrubbed = changesScrubbed
    }
}

/// A privacy export: the subject, and the rows of every store that concern it (secrets withheld).
package struct PrivacyExport: Encodable, Sendable {
    /// Whom the export is about.
    package struct Subject: Encodable, Sendable {
        package var kind: PrivacySubject.Kind
        package var identifier: String
        package var requestor: String?
    }

    package var subject: Subject
    package var generatedAt: String
    package var reason: String
    /// The rows, table by table (every table that may hold the subject is listed, with no rows when it holds none).
    package var stores: [PrivacyTableRows]
    /// What instances keep in memory about the subject.
    package var memory: String
    /// What the reports keep.
    package var reports: String

    static let memoryNote =
        "Each instance keeps in memory copies of the profiles above (the profile cache), the MVPD's authorization answers for "
        + "these sign-ins (for the integration's authorization TTL) and per-device request-rate buckets (a count and a time under "
        + "the device's header; an erase drops them on the instance that makes it); nothing else. "
        + "They are never written to disk and are listed here through the stores they copy."
    static let reportsNote =
        "Report rows (report_minutes) hold counts per minute by requestor, MVPD, platform, application, resource, client, SSO, HBA, "
        + "reason and application profile (the AP-Application-Profile the app sent, a name of the app's, bounded): no device id, "
        + "user id or other identifier of a person. To count distinct users, report_accounts keeps per row and minute a SHA-256 of "
        + "the MVPD and user id; an export by user id lists those rows, an erase unlinks them. To count distinct visitors, "
        + "report_visitors keeps per row and minute a SHA-256 (64 bits) of the visitor id the app sent (AP-Visitor-Identifier or "
        + "ap_vi: Adobe's Experience Cloud ID), never the id itself; nothing links it to a device or user id (an authentication "
        + "session keeps it until the session is purged, and goes with the device's sessions), so an export or erase by device or "
        + "user id cannot find those rows: they stay, unlinked, until the report retention purges them. Whoever holds a visitor id "
        + "can compute its hash and find the rows that count it."
}

/// What a privacy erase did.
package struct PrivacyEraseResult: Encodable, Sendable {
    /// The keyed hash of the subject, as the changes log records it.
    package var subjectHash: String
    /// Rows removed per table.
    package var removed: [String: Int]
    /// Profiles (sign-ins) removed.
    package var signIns: Int
    /// Changes-log entries rewritten without the identifier.
    package var changesScrubbed: Int
    /// What was done so that the database file keeps no copy.
    package var storage: String
    /// When every instance has forgotten the subject.
    package var bounds: String

    static let boundsNote =
        "This instance: at once. Other instances: their cached profiles within the profile feed's bound (PostgreSQL: the NOTIFY, "
        + "milliseconds; SQLite: serve --profile-cache-ms, 250 ms by default); an MVPD answer they keep for an erased sign-in "
        + "can no longer be reached (its key is the removed sign-in) and goes at its TTL or restart. Report figures another "
        + "instance had not yet written (at most its report flush interval, 10 s) may still carry the user's report account: an "
        + "erase by user id repeated after that unlinks them too."
}
