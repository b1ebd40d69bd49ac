import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Requestors, for every front end (`entitle admin requestor`, the admin API, the console) and the demo seeding:
/// checked creation and update, disabling, and the views; each change recorded in the changes log.
package struct RequestorOperations: Sendable {
    /// Requestors as the protocols see them.
    package let catalog: CatalogStore
    /// Requestors as operators see them (disabled ones included) and their integrations.
    package let onboarding: CatalogAdminStore
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder
    /// Time.
    package let clock: any ServiceClock

    /// The profile lifetimes an operator may set, seconds: a minute to 400 days.
    package static let profileLifetimeRange: ClosedRange<Int64> = 60...(400 * 86_400)

    /// Creates or updates a requestor, unchecked and unrecorded (the demo seeding).
    package func save(id: String, name: String, domains: [String], maxResources: Int = 5, metadataCertificatePEM: String?) async throws {
        try await catalog.upsertRequestor(
            RequestorRecord(
                id: id, name: name, domains: domains, maxResources: Int64(maxResources),
                metadataCertificatePem: metadataCertificatePEM))
    }

    /// Creates a requestor and records it; refuses an id that exists, a malformed id or domain, and a certificate that
    /// holds no RSA key.
    package func add(_ record: RequestorRecord, actor: String) async throws {
        try OperatorReach.requireServiceWide("adding a requestor")
        try Self.check(record)
        guard try await onboarding.requestorForAdmin(id: record.id) == nil else {
            throw AdminError("requestor_exists", "requestor \(record.id) exists (change it with `entitle admin requestor update`)", status: 409)
        }
        try await catalog.upsertRequestor(record)
        try await changes.record(actor: actor, action: "requestor.add", target: record.id, after: RequestorChangeView(record))
    }

    /// Replaces an existing requestor's settings (refuses an unknown id) and records the change.
    package func update(_ record: RequestorRecord, actor: String) async throws {
        try OperatorReach.requireRequestor(record.id)
        try Self.check(record)
        guard let before = try await onboarding.requestorForAdmin(id: record.id) else {
            throw AdminError("unknown_requestor", "no requestor \(record.id) (list them with `entitle admin requestor list`)", status: 404)
        }
        try await catalog.upsertRequestor(record)
        try await changes.record(
            actor: actor, action: "requestor.update", target: record.id, before: RequestorChangeView(before), after: RequestorChangeView(record))
    }

    /// Disables or enables a requestor: a disabled one is unknown to every protocol within the catalog bound.
    package func setDisabled(id: String, _ disabled: Bool, actor: String) async throws {
        try OperatorReach.requireRequestor(id)
        try await lookups.existingRequestor(id)
        let wasDisabled = try await onboarding.disabledRequestorIDs().contains(id)
        try await onboarding.setRequestorDisabled(id: id, disabled, at: clock.nowMilliseconds())
        try await changes.record(
            actor: actor, action: disabled ? "requestor.disable" : "requestor.enable", target: id, before: ["disabled": wasDisabled],
            after: ["disabled": disabled])
    }

    /// Every requestor as the admin API shows it, ordered by id.
    package func views() async throws -> [RequestorView] {
        let disabled = try await onboarding.disabledRequestorIDs()
        let integrations = try await onboarding.integrations(requestor: nil, mvpd: nil)
        return try await catalog.allRequestors().filter { OperatorReach.maySee(requestor: $0.id) }.map {
            RequestorView($0, disabled: disabled.contains($0.id), integrations: integrations)
        }
    }

    /// One requestor as the admin API shows it.
    package func view(id: String) async throws -> RequestorView {
        try OperatorReach.requireVisibleRequestor(id)
        let record = try await lookups.existingRequestor(id)
        return RequestorView(
            record, disabled: try await onboarding.disabledRequestorIDs().contains(id),
            integrations: try await onboarding.integrations(requestor: id, mvpd: nil))
    }

    /// Refuses a malformed id, name or domain, out-of-range limits and lifetimes, and a certificate without an RSA key.
    package static func check(_ record: RequestorRecord) throws {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
        guard !record.id.isEmpty, record.id.count <= 64, record.id.unicodeScalars.allSatisfy(allowed.contains) else {
            throw AdminError("invalid_value", "requestor id \"\(record.id)\": use 1-64 letters, digits, _, - or .")
        }
        guard !record.name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AdminError("invalid_value", "requestor name must not be empty")
        }
        let domainCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.*")
        for domain in record.domains {
            guard !domain.isEmpty, domain.count <= 253, domain.unicodeScalars.allSatisfy(domainCharacters.contains) else {
                throw AdminError("invalid_value", "domain \"\(domain)\" is not a host name (such as mynet.example)")
            }
        }
        guard (1...1000).contains(record.maxResources) else {
            throw AdminError("invalid_value", "max resources must be 1...1000")
        }
        if let ttl = record.defaultProfileTtlSeconds, !profileLifetimeRange.contains(ttl) {
            throw AdminError("invalid_value", "the default profile lifetime is 60 seconds to 400 days")
        }
        if let ttl = record.defaultAuthzTtlSeconds, !(0...(7 * 86_400)).contains(ttl) {
            throw AdminError("invalid_value", "the default authorization TTL is 0 to 604800 seconds (0: ask the MVPD every time)")
        }
        if let limit = record.defaultPreflightMaxResources, !(1...1000).contains(limit) {
            throw AdminError("invalid_value", "the default preflight maximum is 1 to 1000 resources per MVPD call")
        }
        if let pem = record.metadataCertificatePem, UserMetadataEncoder.publicKey(pem: pem) == nil {
            throw AdminError("invalid_value", "the programmer certificate is not a PEM certificate or public key with an RSA key")
        }
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: CatalogStore, onboarding: CatalogAdminStore, lookups: AdminCatalog, changes: ChangeRecorder, clock: any ServiceClock) {
        self.catalog = catalog
        self.onboarding = onboarding
        self.lookups = lookups
        self.changes = changes
        self.clock = clock
    }
}

extension RequestorOperations {
    /// A requestor as the operator sees it (disabled ones too).
    package func requestor(id: String) async throws -> RequestorRecord? {
        try await onboarding.requestorForAdmin(id: id)
    }
}
