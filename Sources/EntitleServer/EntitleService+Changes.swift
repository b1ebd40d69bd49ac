import Dispatch
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
        try await repository.changeLog.appendChange(
            ChangeRecord(
                id: Self.changeID(at: now), at: now, actor: actor, action: action, target: target, valueBefore: try text(before),
                valueAfter: try text(after), description: ChangeDescription.current))
        logger.notice("administrative change", metadata: ["actor": "\(actor)", "action": "\(action)", "target": "\(target)"])
    }
}

/// Why the changes made in the current task are made, in the operator's words: set by the console (a field of every
/// change form) and the admin API (`X-Change-Description`) around the domain operation, and recorded with each entry.
package enum ChangeDescription {
    /// The description of the changes of this task, if one was given.
    @TaskLocal package static var current: String?

    /// The longest description kept.
    package static let maximumLength = 500

    /// A description as given, trimmed; nil when empty. Longer than ``maximumLength`` is refused.
    package static func normalized(_ text: String?) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maximumLength else {
            throw AdminError("invalid_value", "the description of a change must be at most \(maximumLength) characters")
        }
        return text
    }
}

extension EntitleService {
    /// An id that orders entries of the same millisecond as they were made (the log is read ordered by time, then id):
    /// the time, the machine's monotonic clock, and randomness.
    static func changeID(at: Int64) -> String {
        let tick = String(DispatchTime.now().uptimeNanoseconds), time = String(max(0, at))
        return String(repeating: "0", count: max(0, 13 - time.count)) + time + "-" + String(repeating: "0", count: max(0, 20 - tick.count)) + tick
            + "-" + Secrets.randomHex(bytes: 6)
    }
}

/// A requestor's settings as the changes log shows them (the certificate by its presence: it is long).
package struct RequestorChangeView: Encodable, Sendable {
    var id: String
    var name: String
    var domains: [String]
    var maxResources: Int64
    var programmerCertificate: Bool
    var defaultProfileTTLSeconds: Int64?
    var defaultAuthorizationTTLSeconds: Int64?
    var defaultPreflightMaxResources: Int64?

    /// The view of a requestor.
    package init(_ r: RequestorRecord) {
        (id, name, domains, maxResources, programmerCertificate) = (r.id, r.name, r.domains, r.maxResources, r.metadataCertificatePem != nil)
        (defaultProfileTTLSeconds, defaultAuthorizationTTLSeconds, defaultPreflightMaxResources) =
            (r.defaultProfileTtlSeconds, r.defaultAuthzTtlSeconds, r.defaultPreflightMaxResources)
    }
}
