import Foundation

/// The changes log: every administrative change records who, when, what, and the values before and after.
extension EntitleService {
    /// Records a change. `before` and `after` are encoded as JSON; callers pass values without secrets.
    package func recordChange(
        actor: String, action: String, target: String, before: (any Encodable & Sendable)? = nil, after: (any Encodable & Sendable)? = nil
    ) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func text(_ value: (any Encodable & Sendable)?) throws -> String? {
            guard let value else { return nil }
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        try await repository.appendChange(
            ChangeRecord(
                id: UUID().uuidString, at: now, actor: actor, action: action, target: target, valueBefore: try text(before),
                valueAfter: try text(after)))
        logger.notice("administrative change", metadata: ["actor": "\(actor)", "action": "\(action)", "target": "\(target)"])
    }
}

/// A requestor's settings as the changes log shows them (the certificate by its presence: it is long).
package struct RequestorChangeView: Encodable, Sendable {
    var id: String
    var name: String
    var domains: [String]
    var maxResources: Int64
    var programmerCertificate: Bool

    /// The view of a requestor.
    package init(_ r: RequestorRecord) {
        (id, name, domains, maxResources, programmerCertificate) = (r.id, r.name, r.domains, r.maxResources, r.metadataCertificatePem != nil)
    }
}
