import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// SSO issuers for every front end (`entitle admin sso`, the admin API, the console): an issuer of Fire TV or Roku
/// platform identity tokens or of a network's service tokens, the keys that verify them, and the requestors whose apps
/// share its identities. Each change is recorded in the changes log (keys by fingerprint, never whole).
package struct SSOOperations: Sendable {
    /// Stored issuers.
    package let store: SSOStore
    /// The shared lookups.
    package let lookups: AdminCatalog
    /// The changes log.
    package let changes: ChangeRecorder
    /// Kept JWKS sets, dropped on a change.
    package let jwks: JWKSKeyCache
    package let clock: any ServiceClock

    /// An issuer to register (or replace).
    package struct Registration: Sendable, Codable {
        package var id: String
        package var type: String
        package var issuer: String
        package var publicKeys: [String]
        package var jwksURL: String?
        package var audience: String?
        package var requestors: [String]

        package init(
            id: String, type: String, issuer: String, publicKeys: [String] = [], jwksURL: String? = nil, audience: String? = nil,
            requestors: [String]
        ) {
            (self.id, self.type, self.issuer, self.publicKeys, self.jwksURL, self.audience, self.requestors) =
                (id, type, issuer, publicKeys, jwksURL, audience, requestors)
        }
    }

    /// An issuer as listed and recorded: its keys by type and SHA-256 fingerprint of their PEM text.
    package struct IssuerView: Sendable, Codable, Equatable {
        package var id: String
        package var type: String
        package var issuer: String
        package var audience: String?
        /// The audience checked: the one set, else `adobe` for a service token, else none.
        package var effectiveAudience: String?
        package var header: String
        package var profileType: String
        package var publicKeys: [String]
        package var jwksUrl: String?
        package var requestors: [String]
        package var createdAt: String
        package var updatedAt: String

        package init(_ record: SSOIssuerRecord) {
            id = record.id
            type = record.type.rawValue
            issuer = record.issuer
            audience = record.audience
            effectiveAudience = record.audience ?? (record.type == .serviceToken ? SSOToken.defaultServiceTokenAudience : nil)
            header = SSOOperations.header(of: record.type)
            profileType = record.type == .serviceToken ? ProfileType.serviceTokenSSO.rawValue : ProfileType.platformSSO.rawValue
            publicKeys = record.publicKeys.map { pem in
                let kind = (try? SSOVerificationKey.keys(pem: pem))?.map(\.algorithm).joined(separator: "+") ?? "?"
                return "\(kind) sha256:\(Secrets.sha256Hex(pem).prefix(16))"
            }
            jwksUrl = record.jwksURL
            requestors = record.requestors
            createdAt = Date(timeIntervalSince1970: Double(record.createdAt) / 1000).ISO8601Format()
            updatedAt = Date(timeIntervalSince1970: Double(record.updatedAt) / 1000).ISO8601Format()
        }
    }

    /// The request header that carries tokens of `type`.
    package static func header(of type: SSOIssuerType) -> String {
        switch type {
        case .amazon: "Adobe-Subject-Token"
        case .roku: "X-Roku-Reserved-Roku-Connect-Token"
        default: "AD-Service-Token"
        }
    }

    /// Every issuer.
    package func issuers() async throws -> [IssuerView] {
        try await store.issuers().filter { OperatorReach.maySee(requestors: $0.requestors) }.map(IssuerView.init)
    }

    /// One issuer, or `unknown_sso_issuer`.
    package func issuer(id: String) async throws -> IssuerView {
        guard let record = try await store.issuer(id: id) else {
            throw AdminError.unknown("sso issuer", id, hint: "list them with `entitle admin sso list`")
        }
        if let reach = OperatorReach.scoped, !OperatorReach.maySee(requestors: record.requestors) { throw reach.outOfScope("SSO issuer \(id)") }
        return IssuerView(record)
    }

    /// Registers an issuer, or replaces the one with the same id, after checking every value; records the change.
    @discardableResult
    package func add(_ registration: Registration, actor: String) async throws -> IssuerView {
        let record = try await validated(registration)
        let before = try await store.issuer(id: record.id)
        try OperatorReach.requireRequestors(record.requestors + (before?.requestors ?? []), "SSO issuer \(record.id)")
        var stored = record
        if let before { stored.createdAt = before.createdAt }
        try await store.saveIssuer(stored)
        await jwks.removeAll()
        let view = IssuerView(stored)
        try await changes.record(
            actor: actor, action: before == nil ? "sso.add" : "sso.update", target: record.id, before: before.map(IssuerView.init), after: view)
        return view
    }

    /// Removes an issuer (and every sign-in shared under its identities); records the change.
    package func remove(id: String, actor: String) async throws {
        if OperatorReach.current != nil, let record = try await store.issuer(id: id) {
            try OperatorReach.requireRequestors(record.requestors, "SSO issuer \(id)")
        }
        guard let before = try await store.issuer(id: id), try await store.deleteIssuer(id: id) else {
            throw AdminError.unknown("sso issuer", id, hint: "list them with `entitle admin sso list`")
        }
        await jwks.removeAll()
        try await changes.record(actor: actor, action: "sso.remove", target: id, before: IssuerView(before))
    }

    private func validated(_ r: Registration) async throws -> SSOIssuerRecord {
        let id = r.id.trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw AdminError("invalid_value", "id: 1 to 64 letters, digits, '-', '_' or '.'")
        }
        let type = SSOIssuerType(rawValue: r.type)
        guard SSOIssuerType.known.contains(type) else { throw AdminError("invalid_value", "type: use amazon, roku or service-token") }
        guard !r.issuer.isEmpty, r.issuer.utf8.count <= 512 else {
            throw AdminError("invalid_value", "issuer: the iss claim of the tokens (1 to 512 bytes)")
        }
        if let audience = r.audience, audience.isEmpty || audience.utf8.count > 512 {
            throw AdminError("invalid_value", "audience: 1 to 512 bytes, or leave it out")
        }
        guard !r.publicKeys.isEmpty || r.jwksURL != nil else {
            throw AdminError("missing_key", "give the issuer's public key (PEM) or the URL of its JWKS")
        }
        guard r.publicKeys.count <= 20 else { throw AdminError("invalid_value", "at most 20 public keys") }
        for (number, pem) in r.publicKeys.enumerated() {
            do { _ = try SSOVerificationKey.keys(pem: pem) } catch {
                throw AdminError("invalid_public_key", "public key \(number + 1): \(error.description)")
            }
        }
        if let url = r.jwksURL {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), let host = parsed.host, url.utf8.count <= 2048,
                scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host))
            else { throw AdminError("invalid_value", "jwks-url: an https URL (http only on loopback)") }
        }
        let requestors = Array(Set(r.requestors)).sorted()
        guard !requestors.isEmpty else { throw AdminError("missing_requestor", "name at least one requestor whose apps share the identities") }
        for requestor in requestors { _ = try await lookups.existingRequestor(requestor) }
        let now = clock.nowMilliseconds()
        return SSOIssuerRecord(
            id: id, type: type, issuer: r.issuer, audience: r.audience, publicKeys: r.publicKeys, jwksURL: r.jwksURL, requestors: requestors,
            createdAt: now, updatedAt: now)
    }

    /// Creates the value from each of its stored properties.
    package init(store: SSOStore, lookups: AdminCatalog, changes: ChangeRecorder, jwks: JWKSKeyCache, clock: any ServiceClock) {
        self.store = store
        self.lookups = lookups
        self.changes = changes
        self.jwks = jwks
        self.clock = clock
    }
}
