import EntitleModel
import EntitleStorage
import Foundation

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
