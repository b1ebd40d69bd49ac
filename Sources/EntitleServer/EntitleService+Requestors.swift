import EntitleCore
import Foundation
import SQLKit

/// Requestor management for `entitle admin requestor add|update|list|show`: checked creation and update.
extension EntitleService {
    /// Creates a requestor; refuses an id that exists, a malformed id or domain, and a certificate that holds no RSA key.
    package func addRequestor(_ record: RequestorRecord) async throws {
        try Self.checkRequestor(record)
        guard try await repository.onboarding.requestorForAdmin(id: record.id) == nil else {
            throw AdminError("requestor_exists", "requestor \(record.id) exists (change it with `entitle admin requestor update`)", status: 409)
        }
        try await repository.catalog.upsertRequestor(record)
    }

    /// Replaces an existing requestor's settings; refuses an unknown id. Returns the settings before the change.
    @discardableResult
    package func updateRequestor(_ record: RequestorRecord) async throws -> RequestorRecord {
        try Self.checkRequestor(record)
        guard let before = try await repository.onboarding.requestorForAdmin(id: record.id) else {
            throw AdminError("unknown_requestor", "no requestor \(record.id) (list them with `entitle admin requestor list`)", status: 404)
        }
        try await repository.catalog.upsertRequestor(record)
        return before
    }

    /// Every requestor, ordered by id.
    package func allRequestors() async throws -> [RequestorRecord] {
        try await repository.catalog.allRequestors()
    }

    /// The profile lifetimes an operator may set, seconds: a minute to 400 days.
    static let profileLifetimeRange: ClosedRange<Int64> = 60...(400 * 86_400)

    static func checkRequestor(_ record: RequestorRecord) throws {
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
}
