import EntitleModel
import EntitleStorage
import Foundation

/// A service key as the console shows it (never the private key).
package struct KeyView: Codable, Sendable, Equatable {
    /// Key id.
    package var kid: String
    /// What it signs.
    package var purpose: String
    /// Created, ISO 8601.
    package var createdAt: String
    /// From when it signs, ISO 8601.
    package var signsFrom: String
    /// When it is (or was) retired: it stops signing then and stays published for verification for 24 hours, ISO 8601.
    package var retiredAt: String?
    /// `signing`, `published` (signs later), `signing until its successor signs` or `retired`.
    package var state: String

    package init(_ record: ServiceKeyRecord, now: Int64) {
        func iso(_ ms: Int64) -> String { Date(timeIntervalSince1970: Double(ms) / 1000).ISO8601Format() }
        (kid, purpose, createdAt, signsFrom, retiredAt) = (
            record.kid, record.purpose.rawValue, iso(record.createdAt), iso(record.signsFrom), record.retiredAt.map(iso)
        )
        if let retiredAt = record.retiredAt, retiredAt <= now {
            state = "retired"
        } else {
            state = record.signsFrom > now ? "published" : record.retiredAt == nil ? "signing" : "signing until its successor signs"
        }
    }
}
